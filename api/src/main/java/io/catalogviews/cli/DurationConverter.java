package io.catalogviews.cli;

import picocli.CommandLine;

import java.time.Duration;
import java.time.format.DateTimeParseException;

/** Reads {@code P7D}/{@code PT1H} (ISO-8601) or the short forms {@code 7d}, {@code 12h}, {@code 30m}, {@code 10s}. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        String v = value.trim();
        try {
            if (v.length() > 1 && Character.isDigit(v.charAt(0))) {
                long amount = Long.parseLong(v.substring(0, v.length() - 1));
                Duration d = switch (Character.toLowerCase(v.charAt(v.length() - 1))) {
                    case 'd' -> Duration.ofDays(amount);
                    case 'h' -> Duration.ofHours(amount);
                    case 'm' -> Duration.ofMinutes(amount);
                    case 's' -> Duration.ofSeconds(amount);
                    default -> null;
                };
                if (d != null && !d.isNegative() && !d.isZero()) {
                    d.toMillis(); // every user of a duration here counts milliseconds: refuse what they cannot hold
                    return d;
                }
            } else {
                Duration d = Duration.parse(v);
                if (!d.isNegative() && !d.isZero()) {
                    d.toMillis();
                    return d;
                }
            }
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            // falls through to the error below
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not a positive duration (P7D, PT1H, 7d, "
                + "12h, 30m, 10s)");
    }

    /** A positive duration, or {@code 0} for none (an option that 0 turns off). */
    static final class OrZero implements CommandLine.ITypeConverter<Duration> {

        @Override
        public Duration convert(String value) {
            if (value.trim().equals("0")) {
                return Duration.ZERO;
            }
            try {
                return new DurationConverter().convert(value);
            } catch (CommandLine.TypeConversionException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is neither 0 nor a positive duration "
                        + "(P7D, PT1H, 7d, 12h, 30m, 10s)");
            }
        }
    }
}
