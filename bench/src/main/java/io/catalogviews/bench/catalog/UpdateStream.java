package io.catalogviews.bench.catalog;

import java.util.SplittableRandom;

/**
 * The deterministic stream of price and stock changes: change {@code k} is a pure function of {@code (seed, k)}
 * and of the catalog (never of the state), so the same events can be replayed into PostgreSQL. Versions are
 * assigned by whoever applies the changes (one more than the product's last version).
 *
 * <p>Seven changes in ten are price changes (a new price drawn around the product's department price, which
 * moves the product in every price index), three are stock changes. Products are drawn uniformly. Change
 * {@code k} occurs at {@link SyntheticCatalog#BASE_TIME_MS} + {@code k} ms + a fixed offset, after every
 * generated {@code updatedAt}, so each change also moves the product to the front of {@code -updatedAt}.
 */
public final class UpdateStream {

    /** The kind and value of one change. */
    public record Change(int product, boolean price, long priceCents, int stock, long occurredAtMs) {
    }

    private static final long OFFSET_MS = 60_000L;

    private final long seed;
    private final int products;

    public UpdateStream(long seed, int products) {
        this.seed = seed;
        this.products = products;
    }

    public Change change(long k) {
        SplittableRandom r = new SplittableRandom((seed ^ 0x5DEECE66DL) * 31 + k * 0x9E3779B97F4A7C15L);
        int product = r.nextInt(products);
        long occurredAt = SyntheticCatalog.BASE_TIME_MS + OFFSET_MS + k;
        if (r.nextInt(10) < 7) {
            long price = SyntheticCatalog.priceCents(r, 1.0 + r.nextInt(20_000));
            return new Change(product, true, price, 0, occurredAt);
        }
        int stock = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(200);
        return new Change(product, false, 0, stock, occurredAt);
    }
}
