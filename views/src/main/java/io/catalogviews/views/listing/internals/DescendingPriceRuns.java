package io.catalogviews.views.listing.internals;

import io.catalogviews.views.index.IndexKeys;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;

/**
 * The {@code -price} listing read from the {@code price} index backwards: highest price first and, as the contract
 * wants for every sort, ties by id ascending. A backward scan yields equal prices by id descending, so it is read one
 * run of equal prices at a time and each run is handed out reversed; a run longer than {@link #RUN_LIMIT} is read
 * forwards instead (one more seek), so that a category with thousands of products at one price costs no more than
 * its page. Keys come out as {@code -price} index keys would be (same prefix length, the {@code -price} sort value),
 * so that merges, cursors and positions see what a {@code -price} index would give.
 *
 * <p>Why not a {@code -price} index: every price change rewrote two more entries per scope (plain and per brand);
 * reading backwards removes a quarter of the index writes of each change.
 */
final class DescendingPriceRuns implements KeyValueIterator<Bytes, byte[]> {

    /** Entries of one price buffered from the backward scan before the run is read forwards instead. */
    static final int RUN_LIMIT = 64;

    private final ReadOnlyKeyValueStore<Bytes, byte[]> index;
    private final byte[] prefix;
    private final Bytes from;
    /** The cursor's key in the price index: entries of its price up to it were listed already (null: none). */
    private final Bytes skipThrough;
    private final long skipPrice;

    private KeyValueIterator<Bytes, byte[]> backwards;
    private KeyValue<Bytes, byte[]> lookahead;
    private final ArrayDeque<KeyValue<Bytes, byte[]>> run = new ArrayDeque<>();
    private KeyValueIterator<Bytes, byte[]> forwards;
    private KeyValue<Bytes, byte[]> next;

    /**
     * @param from        inclusive lower key of the price index range (lowest price)
     * @param to          inclusive upper key (highest price)
     * @param skipThrough the cursor's entry in the price index, or null
     */
    DescendingPriceRuns(ReadOnlyKeyValueStore<Bytes, byte[]> index, byte[] prefix, Bytes from, Bytes to,
                        Bytes skipThrough) {
        this.index = index;
        this.prefix = prefix;
        this.from = from;
        this.skipThrough = skipThrough;
        this.skipPrice = skipThrough == null ? 0L : priceValue(skipThrough);
        this.backwards = index.reverseRange(from, to);
    }

    @Override
    public boolean hasNext() {
        while (next == null) {
            KeyValue<Bytes, byte[]> candidate = pull();
            if (candidate == null) {
                return false;
            }
            if (!alreadyListed(candidate.key)) {
                next = new KeyValue<>(asDescendingKey(candidate.key), candidate.value);
            }
        }
        return true;
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in " + Bytes.wrap(prefix) + " by -price");
        }
        KeyValue<Bytes, byte[]> out = next;
        next = null;
        return out;
    }

    @Override
    public Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in " + Bytes.wrap(prefix) + " by -price");
        }
        return next.key;
    }

    @Override
    public void close() {
        try {
            backwards.close();
        } finally {
            if (forwards != null) {
                forwards.close();
            }
        }
    }

    /** The next price-index entry in listing order, or null at the end. */
    private KeyValue<Bytes, byte[]> pull() {
        while (true) {
            if (forwards != null) {
                if (forwards.hasNext()) {
                    return forwards.next();
                }
                forwards.close();
                forwards = null;
            }
            if (!run.isEmpty()) {
                return run.pollFirst();
            }
            if (!readRun()) {
                return null;
            }
        }
    }

    /** Reads the next run of equal prices into {@link #run}, or opens it forwards; false at the end. */
    private boolean readRun() {
        KeyValue<Bytes, byte[]> first = lookahead != null ? lookahead : backwards.hasNext() ? backwards.next() : null;
        lookahead = null;
        if (first == null) {
            return false;
        }
        long price = priceValue(first.key);
        run.addFirst(first);
        while (backwards.hasNext()) {
            KeyValue<Bytes, byte[]> e = backwards.next();
            if (priceValue(e.key) != price) {
                lookahead = e;
                return true;
            }
            if (run.size() == RUN_LIMIT) {
                // A long run: list this price forwards, then go on backwards below it.
                run.clear();
                backwards.close();
                Bytes runStart = IndexKeys.lowerBound(prefix, price);
                forwards = index.range(runStart, IndexKeys.upperBound(prefix, price));
                backwards = index.reverseRange(from, runStart); // no key equals runStart: lower prices only
                return true;
            }
            run.addFirst(e);
        }
        return true;
    }

    private boolean alreadyListed(Bytes key) {
        return skipThrough != null && priceValue(key) == skipPrice && key.compareTo(skipThrough) <= 0;
    }

    private long priceValue(Bytes key) {
        return IndexKeys.sortValueOf(key.get(), prefix.length);
    }

    /** The same entry as a {@code -price} index key: the price's {@code -price} sort value in place of its own. */
    private Bytes asDescendingKey(Bytes key) {
        byte[] k = key.get().clone();
        long ascending = priceValue(key);
        ByteBuffer.wrap(k, prefix.length, 8).putLong(descendingValue(ascending));
        return Bytes.wrap(k);
    }

    /** {@code -price} sort value of a {@code price} sort value: both encode one price, in opposite orders. */
    static long descendingValue(long ascendingValue) {
        return ~ascendingValue;
    }
}
