package io.catalogviews.views.index;

import static io.catalogviews.views.index.TestValues.logicalOrder;
import static io.catalogviews.views.index.TestValues.randomId;
import static io.catalogviews.views.index.TestValues.randomPrice;
import static io.catalogviews.views.index.TestValues.randomRating;
import static io.catalogviews.views.index.TestValues.randomUpdatedAt;
import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.index.TestValues.Fields;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Properties of the index key encoding that range scans rely on. */
class IndexKeysPropertyTest {

    private static List<Fields> randomProducts(SplittableRandom r, int count) {
        Set<String> ids = new HashSet<>();
        List<Fields> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new Fields(randomId(r, ids), randomPrice(r), randomUpdatedAt(r), randomRating(r)));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(SortOrder.class)
    void shouldOrderKeysInListingOrderWhenProductsAreRandom(SortOrder sort) {
        SplittableRandom r = new SplittableRandom(31L * sort.ordinal() + 1);
        for (String category : new String[] {null, "phones"}) {
            for (boolean perBrand : new boolean[] {false, true}) {
                byte[] prefix = IndexKeys.prefix(new IndexKind(sort, perBrand), category, "acme");
                List<Fields> products = randomProducts(r, 3000);

                List<Fields> byKey = new ArrayList<>(products);
                byKey.sort(Comparator.comparing(p -> IndexKeys.key(prefix, p.sortValue(sort), p.id())));
                List<Fields> byLogic = new ArrayList<>(products);
                byLogic.sort(logicalOrder(sort));

                assertThat(byKey).as("%s in category %s, per brand %s", sort, category, perBrand)
                        .containsExactlyElementsOf(byLogic);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SortOrder.class)
    void shouldCompareEveryPairLikeTheListingWhenValuesAreExtreme(SortOrder sort) {
        SplittableRandom r = new SplittableRandom(97L + sort.ordinal());
        byte[] prefix = IndexKeys.prefix(new IndexKind(sort, false), null, null);
        List<Fields> products = randomProducts(r, 400);
        Comparator<Fields> logic = logicalOrder(sort);
        SoftAssertions softly = new SoftAssertions();
        for (Fields a : products) {
            for (Fields b : products) {
                int byKey = Integer.signum(IndexKeys.key(prefix, a.sortValue(sort), a.id())
                        .compareTo(IndexKeys.key(prefix, b.sortValue(sort), b.id())));
                softly.assertThat(byKey).as("%s vs %s", a, b).isEqualTo(Integer.signum(logic.compare(a, b)));
            }
        }
        softly.assertAll();
    }

    @Test
    void shouldGiveMinusZeroTheSortValueOfZeroWhenRatingsAreSorted() {
        assertThat(SortOrder.RATING_DESC.sortValue(0, 0, -0f)).isEqualTo(SortOrder.RATING_DESC.sortValue(0, 0, 0f));
        assertThat(Long.compareUnsigned(SortOrder.RATING_DESC.sortValue(0, 0, null),
                SortOrder.RATING_DESC.sortValue(0, 0, 0f))).isPositive();
        assertThat(Long.compareUnsigned(SortOrder.RATING_DESC.sortValue(0, 0, 5f),
                SortOrder.RATING_DESC.sortValue(0, 0, 4.5f))).isNegative();
    }

    @ParameterizedTest
    @EnumSource(SortOrder.class)
    void shouldDecodeSortValueAndIdWhenKeysAreRead(SortOrder sort) {
        SplittableRandom r = new SplittableRandom(5L);
        for (Fields p : randomProducts(r, 500)) {
            byte[] prefix = IndexKeys.prefix(new IndexKind(sort, true), "tv", "Ω brand");
            byte[] key = IndexKeys.key(prefix, p.sortValue(sort), p.id()).get();
            assertThat(IndexKeys.sortValueOf(key, prefix.length)).isEqualTo(p.sortValue(sort));
            assertThat(IndexKeys.idOf(key, prefix.length)).isEqualTo(p.id());
        }
    }

    @Test
    void shouldStartStrictlyAfterThePositionWhenACursorIsGiven() {
        SplittableRandom r = new SplittableRandom(11L);
        byte[] prefix = IndexKeys.prefix(new IndexKind(SortOrder.PRICE, false), "phones", null);
        List<Fields> products = randomProducts(r, 300);
        for (Fields at : products) {
            long sv = at.sortValue(SortOrder.PRICE);
            Bytes after = IndexKeys.after(prefix, sv, at.id());
            for (Fields other : products) {
                Bytes key = IndexKeys.key(prefix, other.sortValue(SortOrder.PRICE), other.id());
                boolean later = logicalOrder(SortOrder.PRICE).compare(other, at) > 0;
                assertThat(key.compareTo(after) >= 0).as("%s after %s", other, at).isEqualTo(later);
            }
            // An id that extends the cursor's id comes after it, and is not skipped.
            assertThat(IndexKeys.key(prefix, sv, at.id() + "0").compareTo(after)).isPositive();
            assertThat(IndexKeys.key(prefix, sv, at.id()).compareTo(after)).isNegative();
        }
    }

    /** Every sort with entries of its own: {@code -price} reads the {@code price} entries (DescendingPriceRuns). */
    @ParameterizedTest
    @EnumSource(value = SortOrder.class, names = "PRICE_DESC", mode = EnumSource.Mode.EXCLUDE)
    void shouldNeverScanIntoAnotherScopeWhenOneNameExtendsAnother(SortOrder sort) {
        // Whole-catalog keys have no scope terminator: they live in their own store (CATALOG_INDEX), never
        // beside category keys.
        SortedMapStore<Bytes> catalogIndex = new SortedMapStore<>("catalog-index");
        SortedMapStore<Bytes> categoryIndex = new SortedMapStore<>("category-index");
        SortedMapStore<Bytes> facets = new SortedMapStore<>("facets");
        String[] categories = {"phone", "phones", "phone-", "phone0", "phon"};
        String[] brands = {"a", "ab", "a b", "a\u00e9", "A", "\u00e9"};
        SplittableRandom r = new SplittableRandom(3L);
        Set<String> ids = new HashSet<>();
        List<Object[]> written = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            String category = i % 7 == 0 ? null : categories[r.nextInt(categories.length)];
            String brand = brands[r.nextInt(brands.length)];
            // Extreme prices and ratings put sort values at 0x00.. and 0xFF.. , next to the scope boundaries.
            long price = r.nextBoolean() ? (r.nextBoolean() ? 0L : Long.MAX_VALUE) : randomPrice(r);
            ListingEntry e = new ListingEntry(1, price, randomUpdatedAt(r), randomRating(r), r.nextInt(3), brand,
                    new byte[0]);
            String id = randomId(r, ids);
            new IndexWriter(category == null ? catalogIndex : categoryIndex, facets).replace(category, id, null, e);
            written.add(new Object[] {category, brand, id, e});
        }
        for (String category : new String[] {null, "phone", "phones", "phone-", "phone0", "phon"}) {
            for (String brand : brands) {
                for (boolean perBrand : new boolean[] {false, true}) {
                    IndexKind kind = new IndexKind(sort, perBrand);
                    byte[] prefix = IndexKeys.prefix(kind, category, brand);
                    Set<String> expected = new TreeSet<>();
                    for (Object[] w : written) {
                        if (java.util.Objects.equals(w[0], category) && (!perBrand || w[1].equals(brand))) {
                            expected.add((String) w[2]);
                        }
                    }
                    Set<String> scanned = new TreeSet<>();
                    SortedMapStore<Bytes> index = category == null ? catalogIndex : categoryIndex;
                    try (KeyValueIterator<Bytes, byte[]> it = index.range(IndexKeys.lowerBound(prefix, 0L),
                            IndexKeys.upperBound(prefix, -1L))) {
                        while (it.hasNext()) {
                            KeyValue<Bytes, byte[]> kv = it.next();
                            scanned.add(IndexKeys.idOf(kv.key.get(), prefix.length));
                        }
                    }
                    assertThat(scanned).as("%s category %s brand %s", kind, category, brand)
                            .isEqualTo(expected);
                }
            }
        }
        assertThat(catalogIndex.openIterators() + categoryIndex.openIterators()).isZero();
    }
}
