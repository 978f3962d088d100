package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.cli.ProgressBar;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The PostgreSQL peer's schema and its ingest, set up as a DBA would for these queries. One row per product (its
 * rendered contract JSON in {@code doc}, served as it is, stored once) and one row per (category, product) with the
 * columns the category queries filter and sort on. Each listing index starts with the scope and the sort key and
 * {@code INCLUDE}s the columns the filters read (brand, price, stock), so that a page is filtered and ordered inside
 * one index and only its rows are read from {@code products}; the JSON is not copied into the indexes, which would
 * multiply the working set beyond {@code shared_buffers} (the same budget as the service's RocksDB cache).
 *
 * <p>Facets have a strategy of their own: {@code category_brand_counts} holds (category, brand) → products, in stock,
 * maintained by a trigger on {@code product_categories} (a change that moves neither brand nor stock state costs the
 * trigger nothing), so the facets of a category read at most one row per brand plus one probe at each end of the
 * {@code (category, price_cents, id)} index for the price bounds, instead of aggregating every row of the category
 * (up to ~450 000 at 1 000 000 products). Filtered facets are a GROUP BY over that covering index.
 *
 * <p>Ingest replays the same events the service was sent, each as a batched upsert of the product's row and its
 * category rows (what a Kafka → PostgreSQL sink does), indexes and trigger in place, guarded by version.
 */
public final class PgSchema {

    public static final List<String> DDL = List.of(
            "DROP TABLE IF EXISTS category_brand_counts",
            "DROP TABLE IF EXISTS product_categories",
            "DROP TABLE IF EXISTS products",
            "CREATE TABLE products (id text PRIMARY KEY, brand text NOT NULL, price_cents bigint NOT NULL, "
                    + "stock int NOT NULL, rating real, updated_at bigint NOT NULL, version bigint NOT NULL, "
                    + "doc text NOT NULL)",
            "CREATE TABLE product_categories (category text NOT NULL, id text NOT NULL, brand text NOT NULL, "
                    + "price_cents bigint NOT NULL, stock int NOT NULL, updated_at bigint NOT NULL, "
                    + "PRIMARY KEY (category, id))",
            "CREATE INDEX pc_category_price ON product_categories (category, price_cents, id) INCLUDE (brand, stock)",
            "CREATE INDEX pc_category_brand_price ON product_categories (category, brand, price_cents, id) "
                    + "INCLUDE (stock)",
            "CREATE INDEX pc_category_updated ON product_categories (category, updated_at DESC, id) "
                    + "INCLUDE (brand, price_cents, stock)",
            "CREATE INDEX pc_category_brand_updated ON product_categories (category, brand, updated_at DESC, id) "
                    + "INCLUDE (price_cents, stock)",
            // price DESC, id ASC: a backward scan of the price index would give ties id-descending.
            "CREATE INDEX pc_category_brand_price_desc ON product_categories (category, brand, price_cents DESC, id) "
                    + "INCLUDE (stock)",
            "CREATE INDEX products_price ON products (price_cents, id) INCLUDE (brand, stock)",
            "CREATE INDEX products_updated ON products (updated_at DESC, id) INCLUDE (brand, price_cents, stock)",
            "CREATE TABLE category_brand_counts (category text NOT NULL, brand text NOT NULL, "
                    + "products bigint NOT NULL, in_stock bigint NOT NULL, PRIMARY KEY (category, brand))",
            "CREATE OR REPLACE FUNCTION category_brand_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$\n"
                    + "BEGIN\n"
                    + "  IF TG_OP = 'UPDATE' THEN\n"
                    + "    IF OLD.category = NEW.category AND OLD.brand = NEW.brand\n"
                    + "        AND (OLD.stock > 0) = (NEW.stock > 0) THEN\n"
                    + "      RETURN NULL;\n"
                    + "    END IF;\n"
                    + "  END IF;\n"
                    + "  IF TG_OP IN ('UPDATE', 'DELETE') THEN\n"
                    + "    UPDATE category_brand_counts SET products = products - 1,\n"
                    + "        in_stock = in_stock - (OLD.stock > 0)::int\n"
                    + "      WHERE category = OLD.category AND brand = OLD.brand;\n"
                    + "  END IF;\n"
                    + "  IF TG_OP IN ('INSERT', 'UPDATE') THEN\n"
                    + "    INSERT INTO category_brand_counts AS c VALUES (NEW.category, NEW.brand, 1, (NEW.stock > 0)::int)\n"
                    + "      ON CONFLICT (category, brand) DO UPDATE\n"
                    + "      SET products = c.products + 1, in_stock = c.in_stock + EXCLUDED.in_stock;\n"
                    + "  END IF;\n"
                    + "  RETURN NULL;\n"
                    + "END $$",
            "CREATE TRIGGER product_categories_counts AFTER INSERT OR UPDATE OR DELETE ON product_categories "
                    + "FOR EACH ROW EXECUTE FUNCTION category_brand_counts_apply()");

    /** Why the facets are served as they are (results.json and the report quote it). */
    public static final String FACET_STRATEGY = "category facets without filters from category_brand_counts "
            + "(category, brand) -> products, in stock, maintained by a row trigger on product_categories, plus "
            + "min/max price from one probe at each end of the (category, price_cents, id) index; with filters, a "
            + "GROUP BY brand over the covering (category, price_cents, id) INCLUDE (brand, stock) index";

    private static final String UPSERT_PRODUCT = "INSERT INTO products (id, brand, price_cents, stock, rating, "
            + "updated_at, version, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
            + "brand = EXCLUDED.brand, price_cents = EXCLUDED.price_cents, stock = EXCLUDED.stock, "
            + "rating = EXCLUDED.rating, updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, "
            + "doc = EXCLUDED.doc WHERE products.version < EXCLUDED.version";
    private static final String UPSERT_CATEGORY = "INSERT INTO product_categories (category, id, brand, price_cents, "
            + "stock, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (category, id) DO UPDATE SET "
            + "brand = EXCLUDED.brand, price_cents = EXCLUDED.price_cents, stock = EXCLUDED.stock, "
            + "updated_at = EXCLUDED.updated_at";

    public static final int BATCH = 1000;

    private PgSchema() {
    }

    public static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : DDL) {
                s.execute(ddl);
            }
        }
    }

    /** Loads the products and the first {@code changes} changes; returns the wall time in seconds. */
    public static double load(Connection c, CatalogModel replay, int products, long changes, ProgressBar progress)
            throws SQLException {
        c.setAutoCommit(false);
        long start = System.nanoTime();
        try (PreparedStatement product = c.prepareStatement(UPSERT_PRODUCT);
             PreparedStatement category = c.prepareStatement(UPSERT_CATEGORY)) {
            int pending = 0;
            long done = 0;
            java.util.Set<Integer> inBatch = new java.util.HashSet<>();
            for (int i = 0; i < products; i++) {
                replay.upsert(i);
                add(product, category, replay, i);
                if (++pending == BATCH) {
                    flush(c, product, category);
                    done += pending;
                    pending = 0;
                    progress.update(done);
                }
            }
            if (pending > 0) {
                flush(c, product, category);
                done += pending;
                pending = 0;
            }
            for (long k = 0; k < changes; k++) {
                io.catalogviews.events.ProductEvent e = replay.nextChange();
                int i = Integer.parseInt(e.getProductId().substring(2));
                if (!inBatch.add(i)) {
                    // One multi-row upsert cannot touch a row twice: a second change of the product starts a batch.
                    flush(c, product, category);
                    done += pending;
                    pending = 0;
                    inBatch.clear();
                    inBatch.add(i);
                }
                add(product, category, replay, i);
                if (++pending == BATCH) {
                    flush(c, product, category);
                    done += pending;
                    pending = 0;
                    inBatch.clear();
                    progress.update(done);
                }
            }
            if (pending > 0) {
                flush(c, product, category);
                done += pending;
            }
            progress.finish(done);
        } finally {
            c.setAutoCommit(true);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        try (Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE products");
            s.execute("VACUUM ANALYZE product_categories");
            s.execute("VACUUM ANALYZE category_brand_counts");
            // Write the ingest's dirty buffers out now, so that a checkpoint does not run during the query runs
            // (with shared_buffers sized to the catalog, that is gigabytes of writes competing with the reads).
            s.execute("CHECKPOINT");
        }
        return seconds;
    }

    private static void add(PreparedStatement product, PreparedStatement category, CatalogModel m, int i)
            throws SQLException {
        String id = io.catalogviews.bench.catalog.SyntheticCatalog.productId(i);
        product.setString(1, id);
        product.setString(2, m.brand(i));
        product.setLong(3, m.price(i));
        product.setInt(4, m.stock(i));
        Float rating = m.rating(i);
        if (rating == null) {
            product.setNull(5, java.sql.Types.REAL);
        } else {
            product.setFloat(5, rating);
        }
        product.setLong(6, m.updatedAt(i));
        product.setLong(7, m.version(i));
        product.setString(8, m.json(i));
        product.addBatch();
        for (String cat : m.categoriesOf(i)) {
            category.setString(1, cat);
            category.setString(2, id);
            category.setString(3, m.brand(i));
            category.setLong(4, m.price(i));
            category.setInt(5, m.stock(i));
            category.setLong(6, m.updatedAt(i));
            category.addBatch();
        }
    }

    private static void flush(Connection c, PreparedStatement product, PreparedStatement category)
            throws SQLException {
        product.executeBatch();
        category.executeBatch();
        c.commit();
    }
}
