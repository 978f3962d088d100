package io.catalogviews.views.store;

import io.catalogviews.views.ids.CategoryName;
import io.catalogviews.views.ids.ProductId;
import org.apache.kafka.common.utils.Bytes;

/**
 * The row keys of the view stores, built only from checked ids (see {@link io.catalogviews.views.index.ViewLayout}
 * for the namespaces beside them). Both grammars start every key with a byte ≥ 0x2D, so a row key never falls in
 * the derived namespaces (0x02 index, 0x03 facets).
 * <pre>
 * product-view        id (ASCII)
 * category-listings   category (ASCII) 0x00 id (ASCII)
 * </pre>
 */
public final class RowKeys {

    private RowKeys() {
    }

    public static Bytes product(ProductId id) {
        return Bytes.wrap(id.utf8());
    }

    public static Bytes categoryRow(CategoryName category, ProductId id) {
        return Bytes.wrap(categoryRow(categoryRowPrefix(category), id));
    }

    /** {@code category 0x00}: every row of one category starts with it. */
    public static byte[] categoryRowPrefix(CategoryName category) {
        byte[] c = category.utf8();
        byte[] out = new byte[c.length + 1];
        System.arraycopy(c, 0, out, 0, c.length);
        return out;
    }

    /** The row key of {@code id} under a prefix from {@link #categoryRowPrefix}. */
    public static byte[] categoryRow(byte[] prefix, ProductId id) {
        byte[] i = id.utf8();
        byte[] out = new byte[prefix.length + i.length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(i, 0, out, prefix.length, i.length);
        return out;
    }

    /** The product of a product-view row key. */
    static ProductId productOf(byte[] rowKey) {
        return new ProductId(new String(rowKey, java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** A category-listings row key, split. */
    record CategoryRow(CategoryName category, ProductId id) {
    }

    /** The category of a category-listings row key (the bytes before its 0x00; a checked category, ASCII). */
    static String categoryOfRow(byte[] rowKey) {
        return new String(rowKey, 0, separator(rowKey), java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static int separator(byte[] rowKey) {
        int zero = 0;
        while (zero < rowKey.length && rowKey[zero] != 0) {
            zero++;
        }
        return zero;
    }

    static CategoryRow categoryRowOf(byte[] rowKey) {
        int zero = separator(rowKey);
        if (zero == rowKey.length) {
            throw new IllegalArgumentException("category row key without a 0x00 between category and id: "
                    + Bytes.wrap(rowKey));
        }
        String category = new String(rowKey, 0, zero, java.nio.charset.StandardCharsets.US_ASCII);
        String id = new String(rowKey, zero + 1, rowKey.length - zero - 1, java.nio.charset.StandardCharsets.US_ASCII);
        return new CategoryRow(new CategoryName(category), new ProductId(id));
    }
}
