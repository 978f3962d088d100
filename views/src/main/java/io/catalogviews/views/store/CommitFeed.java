package io.catalogviews.views.store;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.query.ProductCommits;
import org.apache.kafka.common.utils.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the view stores of one instance report their commits ({@link ProductCommits}). Kafka Streams creates the
 * stores, so the feed reaches them through the Streams configuration: put it under {@link #CONFIG} in the
 * properties the application is started with, and every {@link DerivedEntriesStore} finds it when initialised.
 * Thread-safe.
 */
public final class CommitFeed implements ProductCommits {

    /** The Streams configuration key whose value is this instance's feed (an object, not a string). */
    public static final String CONFIG = "catalog.views.commit.feed";

    private static final Logger LOG = LoggerFactory.getLogger(CommitFeed.class);

    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    @Override
    public void listen(Listener listener) {
        listeners.add(listener);
    }

    /** The feed configured in {@code appConfigs}, or null when none is. */
    static CommitFeed from(java.util.Map<String, Object> appConfigs) {
        return appConfigs.get(CONFIG) instanceof CommitFeed feed ? feed : null;
    }

    /** Row keys of {@code store}, partition {@code partition}, were committed. */
    void committed(String store, int partition, Collection<Bytes> rowKeys) {
        if (listeners.isEmpty() || !StoreNames.PRODUCTS.equals(store) || rowKeys.isEmpty()) {
            return;
        }
        Set<String> ids = new HashSet<>(rowKeys.size() * 2);
        for (Bytes key : rowKeys) {
            // Product row keys are checked ids, ASCII by grammar.
            ids.add(new String(key.get(), StandardCharsets.US_ASCII));
        }
        Set<String> committed = Set.copyOf(ids);
        for (Listener listener : listeners) {
            try {
                listener.committed(committed);
            } catch (RuntimeException e) {
                LOG.warn("A listener of commits of partition {} of {} failed", partition, store, e);
            }
        }
    }

    /** This instance's copy of {@code store}, partition {@code partition}, was closed. */
    void closed(String store, int partition) {
        if (!StoreNames.PRODUCTS.equals(store)) {
            return;
        }
        for (Listener listener : listeners) {
            try {
                listener.closed(partition);
            } catch (RuntimeException e) {
                LOG.warn("A listener of the closing of partition {} of {} failed", partition, store, e);
            }
        }
    }
}
