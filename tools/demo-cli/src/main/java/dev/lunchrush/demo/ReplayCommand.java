package dev.lunchrush.demo;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
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
            "The day is one the log still holds (it keeps 14 days), e.g. yesterday's date, the first day that "
                + "./demo backfill writes; the word yesterday means that day in --zone.",
            "Example: ./demo replay yesterday --zone Europe/Paris, or ./demo replay $(date -u -d yesterday +%%F)"})
public class ReplayCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "YYYY-MM-DD", converter = DayConverter.class,
            description = "the day to replay: a date, or yesterday")
    private Day day;

    @Option(names = "--zone", paramLabel = "Z", defaultValue = "UTC", converter = ZoneConverter.class,
            description = "the zone whose midnight bounds the day (default: ${DEFAULT-VALUE})")
    private ZoneId zone = ZoneId.of("UTC");

    @Override
    public Integer call() {
        LocalDate date = day.in(zone);
        if (date.isAfter(LocalDate.now(zone))) {
            throw DemoException.badInput(date + " is in the future in " + zone + ": there is nothing to replay yet");
        }
        return new Replay(date, zone, EndpointOptions.of(spec).reportReplayer(), spec.commandLine().getOut(),
                spec.commandLine().getErr()).run();
    }

    /** The day asked for: a date, or yesterday, whose date depends on the zone (read after the day). */
    record Day(@Nullable LocalDate date) {

        static final Day YESTERDAY = new Day(null);

        LocalDate in(ZoneId zone) {
            return date != null ? date : LocalDate.now(zone).minusDays(1);
        }
    }

    /** {@code YYYY-MM-DD}, strictly, or {@code yesterday}. */
    static final class DayConverter implements ITypeConverter<Day> {
        @Override
        public Day convert(String value) {
            if (value.equals("yesterday")) {
                return Day.YESTERDAY;
            }
            try {
                return new Day(LocalDate.parse(value));
            }
            catch (DateTimeParseException ex) {
                throw new TypeConversionException("'" + value + "' is not a date; write it as YYYY-MM-DD, like "
                        + LocalDate.now(ZoneOffset.UTC).minusDays(1) + " (yesterday, which the word yesterday also says)");
            }
        }
    }
}
