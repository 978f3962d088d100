package io.catalogviews.views.query;

import java.util.Set;

/**
 * Tells readers of the category listings (the category scopes of the product view) which categories a commit changed, so that an answer kept in memory (the
 * facets of a category) is dropped by the commit that makes it wrong instead of being read again on every request.
 *
 * <p>A commit is told twice: just before the store makes its rows readable ({@link Listener#committing}) and just
 * after ({@link Listener#committed}), so that a listener can stop trusting what it kept for those categories before
 * any reader can see the change. Copies that change without a commit — a restore, a standby catching up, a copy closed and opened again — are reported as a
 * reset of their partition.
 */
public interface CategoryCommits {

    /** Feeds {@code listener} from now on, with every commit and reset of this instance's product partitions. */
    void listen(Listener listener);

    /** Never notifies anyone (views that are not Kafka Streams stores, tests): nothing may be kept on its word. */
    CategoryCommits NONE = listener -> { };

    /** Told about commits; called on stream threads, so its methods must return quickly and never throw. */
    interface Listener {

        /** Entries of these categories are about to become readable in product partition {@code partition}. */
        void committing(int partition, Set<String> categories);

        /** Entries of these categories were committed in product partition {@code partition}. */
        void committed(int partition, Set<String> categories);

        /**
         * This instance's copy of product partition {@code partition} changed without a commit, or was closed:
         * anything kept from it may be wrong.
         */
        void reset(int partition);
    }
}
