package io.catalogviews.views.store;

import io.catalogviews.views.ids.ProductId;
import org.apache.kafka.common.utils.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * The row keys of the product view, built only from checked ids (see {@link io.catalogviews.views.index.ViewLayout}
 * for the namespaces beside them): the id's ASCII bytes. The grammar starts every key with a byte ≥ 0x2D, so a row
 * key never falls in a derived namespace (0x02 to 0x06).
 */
public final class RowKeys {

    private RowKeys() {
    }

    public static Bytes product(ProductId id) {
        return Bytes.wrap(id.utf8());
    }

    /** The product of a product-view row key. */
    static ProductId productOf(byte[] rowKey) {
        return new ProductId(new String(rowKey, StandardCharsets.US_ASCII));
    }
}
