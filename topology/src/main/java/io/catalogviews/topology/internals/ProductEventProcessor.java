package io.catalogviews.topology.internals;

import io.catalogviews.events.PriceChanged;
import io.catalogviews.events.Product;
import io.catalogviews.events.ProductDeleted;
import io.catalogviews.events.ProductEvent;
import io.catalogviews.events.ProductUpserted;
import io.catalogviews.events.StockChanged;
import io.catalogviews.events.codec.DecodeResult;
import io.catalogviews.events.codec.ProductEventCodec;
import io.catalogviews.topology.ChangeKind;
import io.catalogviews.topology.DeadLetterReason;
import io.catalogviews.topology.EventOutcomeListener;
import io.catalogviews.topology.TopologySettings;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.index.CategoryChange;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.listing.internals.RowReader;
import io.catalogviews.views.product.ProductJson;
import io.catalogviews.views.product.ProductListing;
import io.catalogviews.views.product.ProductRow;
import io.catalogviews.views.product.ProductState;
import io.catalogviews.views.query.KeyPartitioner;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies product events to the product view, in the contract's order of precedence: undecodable,
 * key mismatch, wrong partition, stale, invalid, unknown product, too large, applied. Bad records go
 * to the dead-letter sink with their original bytes and headers, in the same transaction as the view.
 */
public final class ProductEventProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    static final int MAX_RENDERED_BYTES = 64 * 1024;
    private static final int MAX_PURGED_PER_PUNCTUATION = 10_000;

    private final TopologySettings settings;
    private final EventOutcomeListener outcomes;
    private final ProductEventCodec codec = ProductEventCodec.create();
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<Bytes, byte[]> products;
    private KeyValueStore<Bytes, byte[]> deletions;

    public ProductEventProcessor(TopologySettings settings) {
        this.settings = settings;
        this.outcomes = settings.outcomes();
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.products = context.getStateStore(StoreNames.PRODUCTS);
        this.deletions = context.getStateStore(StoreNames.PRODUCT_DELETIONS);
        context.schedule(settings.purgeInterval(), PunctuationType.WALL_CLOCK_TIME, this::purgeExpiredDeletions);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElse(null);
        if (record.value() == null) {
            applyTombstone(record, source);
            return;
        }
        DecodeResult decoded = codec.decode(record.value());
        if (decoded instanceof DecodeResult.Undecodable undecodable) {
            deadLetter(record, source, DeadLetterReason.UNDECODABLE, undecodable.detail());
            return;
        }
        ProductEvent event = ((DecodeResult.Decoded) decoded).event();
        String id = event.getProductId();
        String keyMismatch = keyMismatch(record.key(), event);
        if (keyMismatch != null) {
            deadLetter(record, source, DeadLetterReason.KEY_MISMATCH, keyMismatch);
            return;
        }
        String wrongPartition = wrongPartition(record.key(), source);
        if (wrongPartition != null) {
            deadLetter(record, source, DeadLetterReason.WRONG_PARTITION, wrongPartition);
            return;
        }
        byte[] current = products.get(RowReader.productKey(id));
        if (current != null && event.getVersion() <= ProductRow.versionOf(current)) {
            outcomes.stale(id, event.getVersion());
            return;
        }
        String violation = ProductRules.violation(event);
        if (violation != null) {
            deadLetter(record, source, DeadLetterReason.INVALID, violation);
            return;
        }
        Object change = event.getChange();
        if (change instanceof ProductDeleted) {
            removeFromListings(id, current, event.getVersion());
            markDeleted(id, event.getVersion());
            outcomes.applied(ChangeKind.DELETE, id, event.getVersion(), event.getOccurredAt().toEpochMilli());
            return;
        }
        Product next;
        ChangeKind kind;
        Product held = current == null || ProductRow.isDeletedRow(current) ? null
                : ProductState.decode(ProductRow.decode(current).state());
        if (change instanceof ProductUpserted upserted) {
            next = ProductRules.normalized(upserted.getProduct());
            kind = ChangeKind.UPSERT;
        } else {
            if (current == null || ProductRow.isDeletedRow(current)) {
                deadLetter(record, source, DeadLetterReason.UNKNOWN_PRODUCT, "product '" + id + "' is "
                        + (current == null ? "not held by the view" : "deleted (at version "
                        + ProductRow.versionOf(current) + ")") + "; a " + change.getClass().getSimpleName()
                        + " needs a held product");
                return;
            }
            next = patched(held, change, event.getOccurredAt());
            kind = change instanceof PriceChanged ? ChangeKind.PRICE : ChangeKind.STOCK;
        }
        byte[] json = ProductJson.render(next, event.getVersion());
        if (json.length > MAX_RENDERED_BYTES) {
            deadLetter(record, source, DeadLetterReason.TOO_LARGE, "rendered product is " + json.length
                    + " bytes, more than the limit of " + MAX_RENDERED_BYTES);
            return;
        }
        products.put(RowReader.productKey(id),
                ProductRow.live(event.getVersion(), json, ProductState.encode(next)).encode());
        updateListings(id, held, next, event.getVersion(), json);
        outcomes.applied(kind, id, event.getVersion(), event.getOccurredAt().toEpochMilli());
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

    private void applyTombstone(Record<byte[], byte[]> record, RecordMetadata source) {
        String id = utf8(record.key());
        if (id == null) {
            deadLetter(record, source, DeadLetterReason.KEY_MISMATCH,
                    "tombstone without a UTF-8 product id as key");
            return;
        }
        String wrongPartition = wrongPartition(record.key(), source);
        if (wrongPartition != null) {
            deadLetter(record, source, DeadLetterReason.WRONG_PARTITION, wrongPartition);
            return;
        }
        byte[] current = products.get(RowReader.productKey(id));
        long version = current == null ? 0L : ProductRow.versionOf(current);
        if (current != null && !ProductRow.isDeletedRow(current)) {
            // A tombstone carries no version: it keeps the remembered one, so older events stay rejected.
            removeFromListings(id, current, version);
            markDeleted(id, version);
        }
        outcomes.applied(ChangeKind.TOMBSTONE, id, version, -1L);
    }

    /**
     * Tells every category the product was or is in (through the repartition topic) what it is now there, or
     * that it left. (The whole-catalog indexes of this partition follow the product row in its own store.)
     */
    private void updateListings(String id, Product held, Product next, long version, byte[] json) {
        ListingEntry entry = ProductListing.entry(next, version, json);
        byte[] change = CategoryChange.upsert(id, entry).encode();
        for (String category : next.getCategories()) {
            forwardCategoryChange(category, change);
        }
        if (held != null) {
            byte[] left = CategoryChange.left(id, version).encode();
            for (String category : held.getCategories()) {
                if (!next.getCategories().contains(category)) {
                    forwardCategoryChange(category, left);
                }
            }
        }
    }

    private void removeFromListings(String id, byte[] current, long version) {
        if (current == null || ProductRow.isDeletedRow(current)) {
            return;
        }
        Product held = ProductState.decode(ProductRow.decode(current).state());
        byte[] left = CategoryChange.left(id, version).encode();
        for (String category : held.getCategories()) {
            forwardCategoryChange(category, left);
        }
    }

    private void forwardCategoryChange(String category, byte[] change) {
        context.forward(new Record<>(RouteTags.tag(RouteTags.CATEGORY_CHANGE, category.getBytes(StandardCharsets.UTF_8)),
                change, context.currentStreamTimeMs()));
    }

    private void markDeleted(String id, long version) {
        long now = context.currentSystemTimeMs();
        products.put(RowReader.productKey(id), ProductRow.deletionMarker(version, now).encode());
        deletions.put(deletionKey(now, id), new byte[0]);
    }

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
            ByteBuffer buf = ByteBuffer.wrap(key.get());
            long deletedAt = buf.getLong();
            String id = new String(key.get(), Long.BYTES, key.get().length - Long.BYTES, StandardCharsets.UTF_8);
            byte[] row = products.get(RowReader.productKey(id));
            // Re-created or deleted again since: the marker this entry points at is gone.
            if (row != null && ProductRow.isDeletedRow(row) && ProductRow.decode(row).deletedAtMs() == deletedAt) {
                products.delete(RowReader.productKey(id));
            }
            deletions.delete(key);
        }
    }

    static Bytes deletionKey(long deletedAtMs, String id) {
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES + idBytes.length).putLong(deletedAtMs).put(idBytes).array());
    }

    private static String keyMismatch(byte[] key, ProductEvent event) {
        String keyText = utf8(key);
        if (keyText == null) {
            return "record key is " + (key == null ? "null" : "not valid UTF-8") + "; it must be the product id";
        }
        if (!keyText.equals(event.getProductId())) {
            return "record key '" + keyText + "' differs from productId '" + event.getProductId() + "'";
        }
        if (event.getChange() instanceof ProductUpserted upserted
                && !keyText.equals(upserted.getProduct().getId())) {
            return "product.id '" + upserted.getProduct().getId() + "' differs from record key and productId '"
                    + keyText + "'";
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

    private void deadLetter(Record<byte[], byte[]> record, RecordMetadata source, DeadLetterReason reason,
                            String detail) {
        context.forward(new Record<>(RouteTags.tag(RouteTags.DEAD_LETTER, record.key()), record.value(),
                record.timestamp(), DeadLetters.headers(record.headers(), reason, detail, source)));
        outcomes.deadLettered(reason);
    }

    /** Strict UTF-8 decoding: a key that is not valid UTF-8 cannot equal any product id. */
    private static String utf8(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
