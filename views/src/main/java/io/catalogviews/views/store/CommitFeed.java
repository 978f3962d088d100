package io.catalogviews.views.store;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.index.IndexKeys;
import io.catalogviews.views.index.ViewLayout;
import io.catalogviews.views.query.IndexCommits;
import io.catalogviews.views.query.CategoryCommits;
import io.catalogviews.views.query.ProductCommits;
import org.apache.kafka.common.utils.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Where the product view's stores report their commits: of products ({@link ProductCommits}, this feed), and, for
 * answers kept in memory, with what they wrote in each scope: the categories whose entries changed
 * ({@link #categories()}, for kept facets), the whole catalog's index keys ({@link #catalogPages()}) and the
 * category scopes' index keys ({@link #categoryPages()}), for kept pages. Kafka Streams creates the stores, so the
 * feed reaches them through the Streams configuration: put it under {@link #CONFIG} in the properties the
 * application is started with, and every {@link DerivedEntriesStore} finds it when initialised. Thread-safe.
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

    /** The commits of this instance's product partitions, with the categories whose entries they changed. */
    public CategoryCommits categories() {
        return categoryListeners::add;
    }

    /** The commits of this instance's product partitions, with the whole-catalog index keys they wrote. */
    public IndexCommits catalogPages() {
        return catalogListeners::add;
    }

    /** The commits of this instance's product partitions, with the category scopes' index keys they wrote. */
    public IndexCommits categoryPages() {
        return categoryPageListeners::add;
    }

    /** Whether commits of {@code store} must be told with the index keys they wrote (see {@link #committing}). */
    boolean wantsIndexKeys(String store) {
        return StoreNames.PRODUCTS.equals(store) && (!catalogListeners.isEmpty() || !categoryPageListeners.isEmpty()
                || !categoryListeners.isEmpty());
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
     * @param indexKeys the index keys (with their namespace byte) the commit wrote or deleted, each once in ascending
     *                  unsigned order, when {@link #wantsIndexKeys} asked for them; else empty
     */
    Runnable committing(String store, int partition, Collection<Bytes> rowKeys, Collection<Bytes> indexKeys) {
        if (rowKeys.isEmpty() || !StoreNames.PRODUCTS.equals(store) || (listeners.isEmpty()
                && catalogListeners.isEmpty() && categoryPageListeners.isEmpty() && categoryListeners.isEmpty())) {
            return () -> { };
        }
        Set<String> ids = new HashSet<>(rowKeys.size() * 2);
        for (Bytes key : rowKeys) {
            // Product row keys are checked ids, ASCII by grammar.
            ids.add(new String(key.get(), StandardCharsets.US_ASCII));
        }
        Set<String> committed = Set.copyOf(ids);
        boolean toldCatalog = !catalogListeners.isEmpty();
        boolean toldPages = !categoryPageListeners.isEmpty();
        boolean toldFacets = !categoryListeners.isEmpty();
        ScopedKeys scoped = ScopedKeys.of(indexKeys);
        Set<String> categories = scoped.categories();
        if (toldCatalog) {
            IndexCommits.Touches touches = new IndexCommits.Touches(scoped.catalog(), committed);
            tell(catalogListeners, l -> l.committing(partition, touches), "commits", store, partition);
        }
        if (toldPages) {
            IndexCommits.Touches touches = new IndexCommits.Touches(scoped.category(), committed);
            tell(categoryPageListeners, l -> l.committing(partition, touches), "commits", store, partition);
        }
        if (toldFacets) {
            tell(categoryListeners, l -> l.committing(partition, categories), "commits", store, partition);
        }
        return () -> {
            if (toldCatalog) {
                tell(catalogListeners, l -> l.committed(partition), "commits", store, partition);
            }
            if (toldPages) {
                tell(categoryPageListeners, l -> l.committed(partition), "commits", store, partition);
            }
            if (toldFacets) {
                tell(categoryListeners, l -> l.committed(partition, categories), "commits", store, partition);
            }
            tell(listeners, l -> l.committed(committed), "commits", store, partition);
        };
    }

    /**
     * A commit's index keys split by scope in one pass, each without its namespace byte and still in ascending
     * unsigned order (the store hands them sorted: it writes them in that order), and the categories of the category
     * scopes' keys: every change of a product in a category writes at least one of them, as its serving entries there
     * carry the product's JSON, whose version changes with every change.
     */
    private record ScopedKeys(byte[][] catalog, byte[][] category, Set<String> categories) {

        static ScopedKeys of(Collection<Bytes> keys) {
            List<byte[]> catalog = new ArrayList<>(keys.size());
            List<byte[]> category = new ArrayList<>(keys.size());
            Set<String> categories = new HashSet<>();
            for (Bytes key : keys) {
                byte[] k = key.get();
                if (k.length > 0 && k[0] == ViewLayout.INDEX) {
                    catalog.add(Arrays.copyOfRange(k, 1, k.length));
                } else if (k.length > 1 && k[0] == ViewLayout.CATEGORY_INDEX) {
                    category.add(Arrays.copyOfRange(k, 1, k.length));
                    categories.add(IndexKeys.categoryOf(k, 1));
                }
            }
            return new ScopedKeys(catalog.toArray(new byte[0][]), category.toArray(new byte[0][]),
                    Set.copyOf(categories));
        }
    }

    /**
     * This instance's copy of {@code store}, partition {@code partition}, changed without a commit (a restore or a
     * standby's update wrote it).
     */
    void restored(String store, int partition) {
        if (StoreNames.PRODUCTS.equals(store)) {
            tell(catalogListeners, l -> l.reset(partition), "the resets", store, partition);
            tell(categoryPageListeners, l -> l.reset(partition), "the resets", store, partition);
            tell(categoryListeners, l -> l.reset(partition), "the resets", store, partition);
        }
    }

    /** This instance's copy of {@code store}, partition {@code partition}, was closed. */
    void closed(String store, int partition) {
        if (StoreNames.PRODUCTS.equals(store)) {
            tell(catalogListeners, l -> l.reset(partition), "the closing", store, partition);
            tell(categoryPageListeners, l -> l.reset(partition), "the closing", store, partition);
            tell(categoryListeners, l -> l.reset(partition), "the closing", store, partition);
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
