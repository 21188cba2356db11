package dev.lunchrush.demo;

import java.time.ZoneId;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A zone id like {@code Europe/Paris} or {@code UTC}; anything else is bad input. */
public final class ZoneConverter implements ITypeConverter<ZoneId> {

    @Override
    public ZoneId convert(String value) {
        try {
            return ZoneId.of(value);
        }
        catch (RuntimeException ex) {
            throw new TypeConversionException("'" + value + "' is not a time zone; use an id like UTC or Europe/Paris");
        }
    }
}
