package io.catalogviews.views.query;

import java.util.Set;

/**
 * Tells readers of the product view when product rows become readable by committed reads, so that a wait for a
 * version is woken by the commit that brings it instead of polling the store.
 *
 * <p>A notification comes after the commit: the Kafka transaction has committed and the store's committed state
 * (what {@link ProductQueries} reads) holds the rows. It is a hint that a row changed, not the row: a listener
 * reads the store to learn what changed, so a version it sees can never be one that a crash takes back.
 */
public interface ProductCommits {

    /** Feeds {@code listener} from now on, with every commit of this instance's product partitions. */
    void listen(Listener listener);

    /** Never notifies anyone (views that are not Kafka Streams stores, tests). */
    ProductCommits NONE = listener -> { };

    /** Told about commits; called on stream threads, so both methods must return quickly and never throw. */
    interface Listener {

        /** Rows of these products were committed in a local partition of the product view. */
        void committed(Set<String> productIds);

        /**
         * This instance's copy of product partition {@code partition} was closed (the partition moved, the task
         * failed, or the instance stops): commits of its products no longer reach the listener from here.
         */
        void closed(int partition);
    }
}
