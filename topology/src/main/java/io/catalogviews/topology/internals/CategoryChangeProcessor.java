package io.catalogviews.topology.internals;

import io.catalogviews.views.StoreNames;
import io.catalogviews.views.ids.CategoryName;
import io.catalogviews.views.ids.ProductId;
import io.catalogviews.views.index.CategoryChange;
import io.catalogviews.views.index.ListingEntry;
import io.catalogviews.views.store.RowKeys;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Applies category changes (keyed by category) to the category rows of the category partition, whose store
 * keeps the sorted indexes and facet counters in step. It owns its rows: removals are derived from its own row,
 * and anything older than what it holds is ignored, so the category views converge to the product view whatever
 * the delivery.
 *
 * <p>The repartition topic is written by the product task, but it is a topic anyone with access can write to: the
 * key and the product id are checked before the store is read. A record that fails the checks (or cannot be
 * decoded) throws before any write, and the processing exception handler dead-letters it.
 */
public final class CategoryChangeProcessor implements Processor<byte[], byte[], Void, Void> {

    private KeyValueStore<Bytes, byte[]> rows;
    private CaughtUpCommits commits;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        // Rows only: the store rewrites the category's index and facet entries from each row it is given.
        rows = context.getStateStore(StoreNames.CATEGORY_LISTINGS);
        commits = CaughtUpCommits.of(context);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        commits.onRecord(record.timestamp());
        String categoryText = record.key() == null ? null : Utf8.strict(record.key());
        CategoryName category = new CategoryName(categoryText);
        if (record.value() == null) {
            throw new IllegalArgumentException("category change for '" + category + "' without a value");
        }
        CategoryChange change = CategoryChange.decode(record.value());
        Bytes rowKey = RowKeys.categoryRow(category, new ProductId(change.productId()));
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
