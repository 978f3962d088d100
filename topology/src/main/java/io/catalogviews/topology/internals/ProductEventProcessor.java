package io.catalogviews.topology.internals;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductDeleted;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;
import io.catalogviews.events.codec.DecodeResult;
import io.catalogviews.events.codec.EventDecoder;
import io.catalogviews.topology.ChangeKind;
import io.catalogviews.topology.DeadLetterReason;
import io.catalogviews.topology.EventOutcomeListener;
import io.catalogviews.topology.TopologySettings;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.ids.ProductId;
import io.catalogviews.views.product.ProductJson;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.product.ProductState;
import io.catalogviews.views.query.KeyPartitioner;
import io.catalogviews.views.store.RowKeys;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies product events to the product view, in the contract's order of precedence: undecodable, key mismatch,
 * wrong partition, key outside the id grammar, stale, invalid, unknown product, too large, applied. Bad records go
 * to the dead-letter sink with their original bytes and headers, in the same transaction as the view.
 *
 * <p>Each record is handled in two steps. {@link #decide} reads the stores and works out the whole outcome — the
 * rows to write or the dead letter — and writes nothing; only then does
 * {@link Decision#apply} write. The key is checked before any store is read: no store is read or written under a
 * key that is not a valid product id. Anything {@code decide} throws (a defect) leaves no write behind, and Kafka
 * Streams' processing exception handler ({@link RecordFailureHandler}) dead-letters the record.
 */
public final class ProductEventProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    static final int MAX_RENDERED_BYTES = 64 * 1024;
    private static final int MAX_PURGED_PER_PUNCTUATION = 10_000;
    private static final byte[] EMPTY = new byte[0];

    private final TopologySettings settings;
    private final EventOutcomeListener outcomes;
    private final EventDecoder codec;
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<Bytes, byte[]> products;
    private KeyValueStore<Bytes, byte[]> deletions;
    private CaughtUpCommits commits;

    public ProductEventProcessor(TopologySettings settings) {
        this.settings = settings;
        this.outcomes = settings.outcomes();
        this.codec = settings.decoder();
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.products = context.getStateStore(StoreNames.PRODUCTS);
        this.deletions = context.getStateStore(StoreNames.PRODUCT_DELETIONS);
        this.commits = CaughtUpCommits.of(context);
        context.schedule(settings.purgeInterval(), PunctuationType.WALL_CLOCK_TIME, this::purgeExpiredDeletions);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        commits.onRecord(record.timestamp());
        RecordMetadata source = context.recordMetadata().orElse(null);
        decide(record, source).apply(this, record, source);
    }

    // ---- deciding: reads only

    private Decision decide(Record<byte[], byte[]> record, RecordMetadata source) {
        return record.value() == null ? decideTombstone(record.key(), source) : decideEvent(record, source);
    }

    private Decision decideEvent(Record<byte[], byte[]> record, RecordMetadata source) {
        DecodeResult decoded = codec.decode(record.value());
        if (decoded instanceof DecodeResult.Undecodable undecodable) {
            return new Decision.DeadLetter(DeadLetterReason.UNDECODABLE, undecodable.detail());
        }
        ProductEvent event = ((DecodeResult.Decoded) decoded).event();
        RecordKey key = RecordKey.of(record.key());
        if (!(key instanceof RecordKey.Text text)) {
            return new Decision.DeadLetter(DeadLetterReason.KEY_MISMATCH, ((RecordKey.Unreadable) key).detail());
        }
        String keyMismatch = keyMismatch(text.text(), event);
        if (keyMismatch != null) {
            return new Decision.DeadLetter(DeadLetterReason.KEY_MISMATCH, keyMismatch);
        }
        String wrongPartition = wrongPartition(record.key(), source);
        if (wrongPartition != null) {
            return new Decision.DeadLetter(DeadLetterReason.WRONG_PARTITION, wrongPartition);
        }
        ProductId id = ProductId.parse(text.text()).orElse(null);
        if (id == null) {
            // Before the stale check: an id outside the grammar is never held, so it is never read as a key.
            return new Decision.DeadLetter(DeadLetterReason.INVALID, "productId must match " + ProductId.GRAMMAR);
        }
        byte[] current = products.get(RowKeys.product(id));
        if (current != null && event.getVersion() <= ProductRow.versionOf(current)) {
            return new Decision.Stale(id.value(), event.getVersion());
        }
        String violation = ProductRules.violation(event);
        if (violation != null) {
            return new Decision.DeadLetter(DeadLetterReason.INVALID, violation);
        }
        Object change = event.getChange();
        long version = event.getVersion();
        long occurredAt = event.getOccurredAt().toEpochMilli();
        if (change instanceof ProductDeleted) {
            return deletion(ChangeKind.DELETE, id, current, version, occurredAt);
        }
        boolean held = current != null && !ProductRow.isDeletedRow(current);
        Product previous = held ? ProductState.decode(ProductRow.decode(current).state()) : null;
        Product next;
        ChangeKind kind;
        if (change instanceof ProductUpserted upserted) {
            next = ProductRules.normalized(upserted.getProduct());
            kind = ChangeKind.UPSERT;
        } else {
            if (!held) {
                return new Decision.DeadLetter(DeadLetterReason.UNKNOWN_PRODUCT, "product '" + id + "' is "
                        + (current == null ? "not held by the view" : "deleted (at version "
                        + ProductRow.versionOf(current) + ")") + "; a " + change.getClass().getSimpleName()
                        + " needs a held product");
            }
            next = patched(previous, change, event.getOccurredAt());
            kind = change instanceof PriceChanged ? ChangeKind.PRICE : ChangeKind.STOCK;
        }
        byte[] json = ProductJson.render(next, version);
        if (json.length > MAX_RENDERED_BYTES) {
            return new Decision.DeadLetter(DeadLetterReason.TOO_LARGE, "rendered product is " + json.length
                    + " bytes, more than the limit of " + MAX_RENDERED_BYTES);
        }
        byte[] row = ProductRow.live(version, json, ProductState.encode(next)).encode();
        return new Decision.Apply(kind, id, version, occurredAt, row, null);
    }

    private Decision decideTombstone(byte[] keyBytes, RecordMetadata source) {
        RecordKey key = RecordKey.of(keyBytes);
        if (!(key instanceof RecordKey.Text text)) {
            return new Decision.DeadLetter(DeadLetterReason.KEY_MISMATCH,
                    "tombstone: " + ((RecordKey.Unreadable) key).detail());
        }
        String wrongPartition = wrongPartition(keyBytes, source);
        if (wrongPartition != null) {
            return new Decision.DeadLetter(DeadLetterReason.WRONG_PARTITION, wrongPartition);
        }
        ProductId id = ProductId.parse(text.text()).orElse(null);
        if (id == null) {
            return new Decision.DeadLetter(DeadLetterReason.INVALID, "tombstone key must be a product id matching "
                    + ProductId.GRAMMAR + ", was '" + text.text() + "'");
        }
        byte[] current = products.get(RowKeys.product(id));
        long version = current == null ? 0L : ProductRow.versionOf(current);
        // A tombstone carries no version: it keeps the remembered one, so older events stay rejected.
        return deletion(ChangeKind.TOMBSTONE, id, current, version, -1L);
    }

    /**
     * A deletion of a held product: a marker row and a deletion-index entry (the marker's derivation takes the
     * product out of the whole catalog's and its categories' listings).
     */
    private Decision deletion(ChangeKind kind, ProductId id, byte[] current, long version, long occurredAt) {
        boolean held = current != null && !ProductRow.isDeletedRow(current);
        if (kind == ChangeKind.TOMBSTONE && !held) {
            return new Decision.Apply(kind, id, version, occurredAt, null, null); // nothing to remove
        }
        long now = context.currentSystemTimeMs();
        return new Decision.Apply(kind, id, version, occurredAt, ProductRow.deletionMarker(version, now).encode(),
                deletionKey(now, id.value()));
    }

    private static Product patched(Product held, Object change, Instant occurredAt) {
        Product.Builder builder = Product.newBuilder(held).setUpdatedAt(occurredAt);
        if (change instanceof PriceChanged price) {
            builder.setPriceCents(price.getPriceCents()).setCurrency(price.getCurrency());
        } else if (change instanceof StockChanged stock) {
            builder.setStock(stock.getStock());
        }
        return builder.build();
    }

    private static String keyMismatch(String key, ProductEvent event) {
        if (!key.equals(event.getProductId())) {
            return "record key '" + key + "' differs from productId '" + event.getProductId() + "'";
        }
        if (event.getChange() instanceof ProductUpserted upserted && !key.equals(upserted.getProduct().getId())) {
            return "product.id '" + upserted.getProduct().getId() + "' differs from record key and productId '"
                    + key + "'";
        }
        return null;
    }

    private String wrongPartition(byte[] key, RecordMetadata source) {
        if (source == null) {
            return null;
        }
        int expected = KeyPartitioner.partitionOf(key, settings.inputPartitions());
        return expected == source.partition() ? null : "record is on partition " + source.partition()
                + " but murmur2 of its key places it on partition " + expected + " of "
                + settings.inputPartitions();
    }

    // ---- applying: writes only, from what was decided

    /** The whole outcome of one record, worked out before anything is written. */
    private sealed interface Decision {

        void apply(ProductEventProcessor processor, Record<byte[], byte[]> record, RecordMetadata source);

        record DeadLetter(DeadLetterReason reason, String detail) implements Decision {
            @Override
            public void apply(ProductEventProcessor p, Record<byte[], byte[]> record, RecordMetadata source) {
                DeadLetters.DeadLetter letter = DeadLetters.of(record.key(), record.value(), record.headers(), reason,
                        detail, source == null ? DeadLetters.Source.UNKNOWN
                                : new DeadLetters.Source(source.topic(), source.partition(), source.offset()),
                        p.settings.deadLetterMaxBytes());
                p.context.forward(new Record<>(letter.key(), letter.value(),
                        record.timestamp(), letter.headers()));
                p.outcomes.deadLettered(reason);
            }
        }

        record Stale(String id, long version) implements Decision {
            @Override
            public void apply(ProductEventProcessor p, Record<byte[], byte[]> record, RecordMetadata source) {
                p.outcomes.stale(id, version);
            }
        }

        /**
         * @param row         the product row to store, or null for none
         * @param deletionKey the deletion-index entry to add, or null for none
         */
        record Apply(ChangeKind kind, ProductId id, long version, long occurredAtMs, byte[] row, Bytes deletionKey)
                implements Decision {
            @Override
            public void apply(ProductEventProcessor p, Record<byte[], byte[]> record, RecordMetadata source) {
                if (row != null) {
                    p.products.put(RowKeys.product(id), row);
                }
                if (deletionKey != null) {
                    p.deletions.put(deletionKey, EMPTY);
                }
                p.outcomes.applied(kind, id.value(), version, occurredAtMs);
            }
        }
    }

    /** A record key: readable as text (maybe outside the grammar), or not. */
    private sealed interface RecordKey {
        record Text(String text) implements RecordKey {
        }

        record Unreadable(String detail) implements RecordKey {
        }

        static RecordKey of(byte[] bytes) {
            if (bytes == null) {
                return new Unreadable("record key is null; it must be the product id");
            }
            String text = Utf8.strict(bytes);
            return text == null ? new Unreadable("record key is not valid UTF-8; it must be the product id")
                    : new Text(text);
        }
    }

    // ---- deletion markers

    /** Removes deletion markers older than the retention, so that the view does not grow without bound. */
    private void purgeExpiredDeletions(long now) {
        long cutoff = now - settings.deletedRetention().toMillis();
        List<Bytes> expired = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = deletions.all()) {
            while (it.hasNext() && expired.size() < MAX_PURGED_PER_PUNCTUATION) {
                Bytes key = it.next().key;
                if (ByteBuffer.wrap(key.get(), 0, Long.BYTES).getLong() > cutoff) {
                    break;
                }
                expired.add(key);
            }
        }
        for (Bytes key : expired) {
            long deletedAt = ByteBuffer.wrap(key.get()).getLong();
            String text = new String(key.get(), Long.BYTES, key.get().length - Long.BYTES, StandardCharsets.UTF_8);
            // Entries are written from checked ids only; anything else is not ours to follow into the view.
            ProductId.parse(text).ifPresent(id -> {
                byte[] row = products.get(RowKeys.product(id));
                // Re-created or deleted again since: the marker this entry points at is gone.
                if (row != null && ProductRow.isDeletedRow(row) && ProductRow.decode(row).deletedAtMs() == deletedAt) {
                    products.delete(RowKeys.product(id));
                }
            });
            deletions.delete(key);
        }
    }

    static Bytes deletionKey(long deletedAtMs, String id) {
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES + idBytes.length).putLong(deletedAtMs).put(idBytes).array());
    }
}
