package dev.lunchrush.demo;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import dev.lunchrush.load.replay.Replay;
import dev.lunchrush.localstack.access.DemoException;

/** {@code ./demo replay YYYY-MM-DD}: the accountant's "last Thursday again". */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Replay a past day from the log (POST /admin/replays on the report replayer), with a progress "
                + "bar while it reads, then print the day's report: totals, orders per kitchen, per hour, portions per dish.",
            "Example: ./demo replay 2026-11-26 --zone Europe/Paris"})
public class ReplayCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "YYYY-MM-DD", converter = DateConverter.class, description = "the day to replay")
    private LocalDate date;

    @Option(names = "--zone", paramLabel = "Z", defaultValue = "UTC", converter = ZoneConverter.class,
            description = "the zone whose midnight bounds the day (default: ${DEFAULT-VALUE})")
    private ZoneId zone = ZoneId.of("UTC");

    @Override
    public Integer call() {
        if (date.isAfter(LocalDate.now(zone))) {
            throw DemoException.badInput(date + " is in the future in " + zone + ": there is nothing to replay yet");
        }
        return new Replay(date, zone, EndpointOptions.of(spec).reportReplayer(), spec.commandLine().getOut(),
                spec.commandLine().getErr()).run();
    }

    /** {@code YYYY-MM-DD}, strictly. */
    static final class DateConverter implements ITypeConverter<LocalDate> {
        @Override
        public LocalDate convert(String value) {
            try {
                return LocalDate.parse(value);
            }
            catch (DateTimeParseException ex) {
                throw new TypeConversionException("'" + value + "' is not a date; write it as YYYY-MM-DD, like 2026-11-26");
            }
        }
    }
}
