package io.catalogviews.views.index;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Set;
import java.util.SplittableRandom;

/** Random product fields within the contract's rules, and the contract's listing order written plainly. */
public final class TestValues {

    /** 9999-12-31T23:59:59.999Z. */
    public static final long MAX_UPDATED_AT = 253_402_300_799_999L;
    private static final String ID_CHARS = "ABCXYZabcxyz0189._:~-";

    private TestValues() {
    }

    /** What the sorts read of a product. */
    public record Fields(String id, long price, long updatedAt, Float rating) {
        public long sortValue(SortOrder sort) {
            return sort.sortValue(price, updatedAt, rating);
        }
    }

    public static long randomPrice(SplittableRandom r) {
        return switch (r.nextInt(6)) {
            case 0 -> 0L;
            case 1 -> Long.MAX_VALUE;
            case 2 -> r.nextLong(0, 20); // ties
            case 3 -> Long.MAX_VALUE - r.nextLong(0, 3);
            default -> r.nextLong(0, Long.MAX_VALUE);
        };
    }

    public static long randomUpdatedAt(SplittableRandom r) {
        return switch (r.nextInt(5)) {
            case 0 -> 0L;
            case 1 -> MAX_UPDATED_AT;
            case 2 -> 1_700_000_000_000L + r.nextInt(5); // ties
            default -> r.nextLong(0, MAX_UPDATED_AT + 1);
        };
    }

    public static Float randomRating(SplittableRandom r) {
        return switch (r.nextInt(9)) {
            case 0 -> null;
            case 1 -> -0f;
            case 2 -> 0f;
            case 3 -> 5f;
            case 4 -> Float.MIN_VALUE;
            case 5 -> Math.nextDown(5f);
            case 6 -> (float) r.nextInt(11) / 2; // ties on x.0 and x.5
            default -> (float) (r.nextDouble() * 5);
        };
    }

    /** A new id of the contract's alphabet, 1..7 characters, not in {@code taken} (which it joins). */
    public static String randomId(SplittableRandom r, Set<String> taken) {
        while (true) {
            StringBuilder id = new StringBuilder();
            int length = r.nextInt(1, 8);
            for (int i = 0; i < length; i++) {
                id.append(ID_CHARS.charAt(r.nextInt(ID_CHARS.length())));
            }
            if (taken.add(id.toString())) {
                return id.toString();
            }
        }
    }

    /**
     * The listing order of the contract, without the key encoding: price ascending, price descending, newest
     * first, best rated first with no rating last (−0 equal to 0); ties by id ascending in UTF-8 byte order.
     */
    public static Comparator<Fields> logicalOrder(SortOrder sort) {
        Comparator<Fields> bySort = switch (sort) {
            case PRICE -> Comparator.comparingLong(Fields::price);
            case PRICE_DESC -> Comparator.comparingLong(Fields::price).reversed();
            case UPDATED_DESC -> Comparator.comparingLong(Fields::updatedAt).reversed();
            case RATING_DESC -> (a, b) -> {
                if (a.rating() == null || b.rating() == null) {
                    return Boolean.compare(a.rating() == null, b.rating() == null);
                }
                return Float.compare(b.rating() + 0f, a.rating() + 0f); // x + 0f turns −0 into 0
            };
        };
        return bySort.thenComparing((a, b) -> Arrays.compareUnsigned(a.id().getBytes(StandardCharsets.UTF_8),
                b.id().getBytes(StandardCharsets.UTF_8)));
    }
}
