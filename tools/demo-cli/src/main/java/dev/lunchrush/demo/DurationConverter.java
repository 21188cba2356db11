package dev.lunchrush.demo;

import java.time.Duration;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import dev.lunchrush.load.rush.Durations;

/** Durations as people type them ({@link Durations}): {@code 30s}, {@code 2m}, {@code 1m30s}, {@code 500ms}, {@code 1h}, or plain seconds. */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        try {
            return Durations.parse(value);
        }
        catch (IllegalArgumentException ex) {
            throw new TypeConversionException(ex.getMessage());
        }
    }
}
