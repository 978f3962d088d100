package io.catalogviews.topology.internals;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.index.CategoryChange;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.listing.internals.RowReader;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

import java.nio.charset.StandardCharsets;

/**
 * Applies category changes (keyed by category) to the category rows of the category partition, whose store
 * keeps the sorted indexes and facet counters in step. It owns its rows: removals are derived from its own row,
 * and anything older than what it holds is ignored, so the category views converge to the product view whatever
 * the delivery.
 */
public final class CategoryChangeProcessor implements Processor<byte[], byte[], Void, Void> {

    private KeyValueStore<Bytes, byte[]> rows;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        // Rows only: the store rewrites the category's index and facet entries from each row it is given.
        rows = context.getStateStore(StoreNames.CATEGORY_LISTINGS);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        String category = new String(record.key(), StandardCharsets.UTF_8);
        CategoryChange change = CategoryChange.decode(record.value());
        Bytes rowKey = RowReader.categoryRowKey(category, change.productId());
        byte[] current = rows.get(rowKey);
        ListingEntry old = current == null ? null : ListingEntry.decode(current);
        if (change.isLeave()) {
            // A tombstone leaves at the version it keeps, so an equal version still removes.
            if (old != null && old.version() <= change.version()) {
                rows.delete(rowKey);
            }
            return;
        }
        if (old != null && old.version() >= change.version()) {
            return;
        }
        rows.put(rowKey, change.entry().encode());
    }
}
