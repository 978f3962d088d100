package io.catalogviews.views.store;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.query.IndexCommits;
import io.catalogviews.views.query.CategoryCommits;
import io.catalogviews.views.query.ProductCommits;
import org.apache.kafka.common.utils.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Where the view stores of one instance report their commits: of products ({@link ProductCommits}, this feed), of
 * categories ({@link #categories()}), and with the index keys they wrote, for kept pages: of the product partitions'
 * whole-catalog indexes ({@link #catalogPages()}) and of the category partitions' indexes
 * ({@link #categoryPages()}). Kafka Streams creates the stores, so the feed reaches them through the Streams configuration: put it under {@link #CONFIG} in the
 * properties the application is started with, and every {@link DerivedEntriesStore} finds it when initialised.
 * Thread-safe.
 */
public final class CommitFeed implements ProductCommits {

    /** The Streams configuration key whose value is this instance's feed (an object, not a string). */
    public static final String CONFIG = "catalog.views.commit.feed";

    private static final Logger LOG = LoggerFactory.getLogger(CommitFeed.class);

    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final List<CategoryCommits.Listener> categoryListeners = new CopyOnWriteArrayList<>();
    private final List<IndexCommits.Listener> catalogListeners = new CopyOnWriteArrayList<>();
    private final List<IndexCommits.Listener> categoryPageListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> closingListeners = new CopyOnWriteArrayList<>();

    @Override
    public void listen(Listener listener) {
        listeners.add(listener);
    }

    /** The commits of this instance's category partitions. */
    public CategoryCommits categories() {
        return categoryListeners::add;
    }

    /** The commits of this instance's product partitions, with the whole-catalog index keys they wrote. */
    public IndexCommits catalogPages() {
        return catalogListeners::add;
    }

    /** The commits of this instance's category partitions, with the index keys they wrote. */
    public IndexCommits categoryPages() {
        return categoryPageListeners::add;
    }

    /** Whether commits of {@code store} must be told with the index keys they wrote (see {@link #committing}). */
    boolean wantsIndexKeys(String store) {
        return !indexListeners(store).isEmpty();
    }

    private List<IndexCommits.Listener> indexListeners(String store) {
        return StoreNames.PRODUCTS.equals(store) ? catalogListeners
                : StoreNames.CATEGORY_LISTINGS.equals(store) ? categoryPageListeners : List.of();
    }

    /**
     * Runs {@code listener} whenever a view store of this instance is about to close, before its RocksDB instance
     * is (read handles of it must be dropped by then). Called on stream threads: it must return quickly.
     */
    public void onClosing(Runnable listener) {
        closingListeners.add(listener);
    }

    /** This instance's copy of {@code store}, partition {@code partition}, is about to close. */
    void closing(String store, int partition) {
        tell(closingListeners, Runnable::run, "the closing", store, partition);
    }

    /** The feed configured in {@code appConfigs}, or null when none is. */
    static CommitFeed from(java.util.Map<String, Object> appConfigs) {
        return appConfigs.get(CONFIG) instanceof CommitFeed feed ? feed : null;
    }

    /**
     * Row keys of {@code store}, partition {@code partition}, are about to be committed: tells who must know before
     * the rows become readable, and returns what to run after the store's commit, whatever its outcome.
     *
     * @param indexKeys the index keys (with their namespace byte) the commit wrote or deleted, when
     *                  {@link #wantsIndexKeys} asked for them; else empty
     */
    Runnable committing(String store, int partition, Collection<Bytes> rowKeys, Collection<Bytes> indexKeys) {
        if (rowKeys.isEmpty()) {
            return () -> { };
        }
        if (StoreNames.CATEGORY_LISTINGS.equals(store)) {
            boolean toldPages = !categoryPageListeners.isEmpty();
            if (toldPages) {
                Set<String> ids = new HashSet<>(rowKeys.size() * 2);
                for (Bytes key : rowKeys) {
                    ids.add(RowKeys.categoryRowOf(key.get()).id().value());
                }
                IndexCommits.Touches touches = new IndexCommits.Touches(withoutNamespace(indexKeys), Set.copyOf(ids));
                tell(categoryPageListeners, l -> l.committing(partition, touches), "commits", store, partition);
            }
            boolean toldFacets = !categoryListeners.isEmpty();
            Set<String> categories = toldFacets ? categoriesOf(rowKeys) : Set.of();
            if (toldFacets) {
                tell(categoryListeners, l -> l.committing(partition, categories), "commits", store, partition);
            }
            return () -> {
                if (toldPages) {
                    tell(categoryPageListeners, l -> l.committed(partition), "commits", store, partition);
                }
                if (toldFacets) {
                    tell(categoryListeners, l -> l.committed(partition, categories), "commits", store, partition);
                }
            };
        }
        if (!StoreNames.PRODUCTS.equals(store) || (listeners.isEmpty() && catalogListeners.isEmpty())) {
            return () -> { };
        }
        Set<String> ids = new HashSet<>(rowKeys.size() * 2);
        for (Bytes key : rowKeys) {
            // Product row keys are checked ids, ASCII by grammar.
            ids.add(new String(key.get(), StandardCharsets.US_ASCII));
        }
        Set<String> committed = Set.copyOf(ids);
        boolean toldCatalog = !catalogListeners.isEmpty();
        if (toldCatalog) {
            IndexCommits.Touches touches = new IndexCommits.Touches(withoutNamespace(indexKeys), committed);
            tell(catalogListeners, l -> l.committing(partition, touches), "commits", store, partition);
        }
        return () -> {
            if (toldCatalog) {
                tell(catalogListeners, l -> l.committed(partition), "commits", store, partition);
            }
            tell(listeners, l -> l.committed(committed), "commits", store, partition);
        };
    }

    /** The keys without their first byte (the namespace), sorted unsigned (a key written twice is there twice). */
    private static byte[][] withoutNamespace(Collection<Bytes> keys) {
        byte[][] out = new byte[keys.size()][];
        int n = 0;
        for (Bytes key : keys) {
            byte[] k = key.get();
            out[n++] = Arrays.copyOfRange(k, 1, k.length);
        }
        Arrays.sort(out, Arrays::compareUnsigned);
        return out;
    }

    private static Set<String> categoriesOf(Collection<Bytes> categoryRowKeys) {
        Set<String> categories = new HashSet<>();
        for (Bytes key : categoryRowKeys) {
            categories.add(RowKeys.categoryOfRow(key.get()));
        }
        return Set.copyOf(categories);
    }

    /**
     * This instance's copy of {@code store}, partition {@code partition}, changed without a commit (a restore or a
     * standby's update wrote it).
     */
    void restored(String store, int partition) {
        if (StoreNames.CATEGORY_LISTINGS.equals(store)) {
            tell(categoryPageListeners, l -> l.reset(partition), "the resets", store, partition);
            tell(categoryListeners, l -> l.reset(partition), "the resets", store, partition);
        } else if (StoreNames.PRODUCTS.equals(store)) {
            tell(catalogListeners, l -> l.reset(partition), "the resets", store, partition);
        }
    }

    /** This instance's copy of {@code store}, partition {@code partition}, was closed. */
    void closed(String store, int partition) {
        if (StoreNames.CATEGORY_LISTINGS.equals(store)) {
            tell(categoryPageListeners, l -> l.reset(partition), "the closing", store, partition);
            tell(categoryListeners, l -> l.reset(partition), "the closing", store, partition);
        } else if (StoreNames.PRODUCTS.equals(store)) {
            tell(catalogListeners, l -> l.reset(partition), "the closing", store, partition);
            tell(listeners, l -> l.closed(partition), "the closing", store, partition);
        }
    }

    /** Calls every listener; one that fails is logged and does not keep the others from being told. */
    private static <L> void tell(List<L> listeners, Consumer<L> call, String what, String store, int partition) {
        for (L listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                LOG.warn("A listener of {} of partition {} of {} failed", what, partition, store, e);
            }
        }
    }
}
