package io.catalogviews.views.query;

import java.util.Arrays;
import java.util.Set;

/**
 * Tells readers of a scope's sorted indexes in the product view's partitions — the whole catalog's, or the category
 * scopes' — what a commit wrote, so that a page kept in memory is dropped by the commit that makes it wrong,
 * and only by such a commit.
 *
 * <p>Like {@link CategoryCommits}, a commit is told twice: just before the store makes its rows readable
 * ({@link Listener#committing}, with what it wrote) and just after ({@link Listener#committed}). Copies that change
 * without a commit — a restore, a standby catching up, a copy closed — are reported as a reset of their partition.
 */
public interface IndexCommits {

    /** Feeds {@code listener} from now on, with every commit and reset of this instance's partitions of the view. */
    void listen(Listener listener);

    /** Never notifies anyone (views that are not Kafka Streams stores, tests): nothing may be kept on its word. */
    IndexCommits NONE = listener -> { };

    /**
     * What one commit of a partition wrote.
     *
     * @param indexKeys  the index keys it wrote or deleted (without their namespace byte), sorted unsigned
     * @param productIds the products whose rows it wrote or deleted
     */
    record Touches(byte[][] indexKeys, Set<String> productIds) {

        /** Whether any key written lies in {@code [from, to]} (inclusive, unsigned byte order). */
        public boolean touchesRange(byte[] from, byte[] to) {
            int lo = 0;
            int hi = indexKeys.length;
            while (lo < hi) { // the first key >= from
                int mid = (lo + hi) >>> 1;
                if (Arrays.compareUnsigned(indexKeys[mid], from) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo < indexKeys.length && Arrays.compareUnsigned(indexKeys[lo], to) <= 0;
        }
    }

    /** Told about commits; called on stream threads, so its methods must return quickly and never throw. */
    interface Listener {

        /** What a commit of partition {@code partition} wrote is about to become readable. */
        void committing(int partition, Touches touches);

        /** The commit of partition {@code partition} told by the last {@link #committing} has ended. */
        void committed(int partition);

        /**
         * This instance's copy of partition {@code partition} changed without a commit, or was closed:
         * anything kept from it may be wrong.
         */
        void reset(int partition);
    }
}
