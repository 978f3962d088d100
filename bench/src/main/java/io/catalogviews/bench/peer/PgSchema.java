package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;
import io.catalogviews.cli.ProgressBar;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The PostgreSQL peer's schema and its ingest. One row per product (with its rendered contract JSON in
 * {@code doc}, served as it is) and one row per (category, product) with the columns the category queries filter
 * and sort on; the indexes a DBA would create for the query classes: (category, price, id) and (category,
 * updated_at desc, id), each also with brand after the category (the seed workload filters on brand), the
 * brand/price one covering stock for facets; (price, id) and (updated_at desc, id) for whole-catalog pages.
 *
 * <p>Ingest replays the same events the service was sent, each as a batched upsert of the product's row and its
 * category rows (what a Kafka → PostgreSQL sink does), indexes in place, guarded by version.
 */
public final class PgSchema {

    public static final List<String> DDL = List.of(
            "DROP TABLE IF EXISTS product_categories",
            "DROP TABLE IF EXISTS products",
            "CREATE TABLE products (id text PRIMARY KEY, brand text NOT NULL, price_cents bigint NOT NULL, "
                    + "stock int NOT NULL, rating real, updated_at bigint NOT NULL, version bigint NOT NULL, "
                    + "doc text NOT NULL)",
            "CREATE TABLE product_categories (category text NOT NULL, id text NOT NULL, brand text NOT NULL, "
                    + "price_cents bigint NOT NULL, stock int NOT NULL, updated_at bigint NOT NULL, "
                    + "PRIMARY KEY (category, id))",
            "CREATE INDEX pc_category_price ON product_categories (category, price_cents, id)",
            "CREATE INDEX pc_category_brand_price ON product_categories (category, brand, price_cents, id) "
                    + "INCLUDE (stock)",
            "CREATE INDEX pc_category_updated ON product_categories (category, updated_at DESC, id)",
            "CREATE INDEX pc_category_brand_updated ON product_categories (category, brand, updated_at DESC, id)",
            "CREATE INDEX products_price ON products (price_cents, id)",
            "CREATE INDEX products_updated ON products (updated_at DESC, id)");

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
