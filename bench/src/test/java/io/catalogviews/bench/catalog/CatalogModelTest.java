package io.catalogviews.bench.catalog;

import io.catalogviews.bench.http.JsonCheck;
import io.catalogviews.events.ProductEvent;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class CatalogModelTest {

    @Test
    void shouldGenerateTheSameCatalogAndChangesWhenTheSeedIsTheSame() {
        CatalogModel a = new CatalogModel(new SyntheticCatalog(7), 500);
        CatalogModel b = new CatalogModel(new SyntheticCatalog(7), 500);
        for (int i = 0; i < 500; i++) {
            assertThat(a.upsert(i)).isEqualTo(b.upsert(i));
        }
        for (int k = 0; k < 300; k++) {
            assertThat(a.nextChange()).isEqualTo(b.nextChange());
        }
        assertThat(a.json(42)).isEqualTo(b.json(42));
    }

    @Test
    void shouldApplyChangesWithIncreasingVersionsAndMoveUpdatedAt() throws Exception {
        CatalogModel m = new CatalogModel(new SyntheticCatalog(1), 50);
        for (int i = 0; i < 50; i++) {
            m.upsert(i);
        }
        ProductEvent e = m.nextChange();
        int i = Integer.parseInt(e.getProductId().substring(2));
        assertThat(e.getVersion()).isEqualTo(2);
        assertThat(m.version(i)).isEqualTo(2);
        assertThat(m.updatedAt(i)).isEqualTo(e.getOccurredAt().toEpochMilli());
        assertThat(JsonCheck.MAPPER.readTree(m.json(i)).get("version").asLong()).isEqualTo(2);
    }

    @Test
    void shouldListByPriceThenIdWhenPricesTie() {
        CatalogModel m = new CatalogModel(new SyntheticCatalog(3), 2000);
        for (int i = 0; i < 2000; i++) {
            m.upsert(i);
        }
        int[] listed = m.listing(null, m.filter(-1, 0, Long.MAX_VALUE), CatalogModel.Sort.PRICE);
        assertThat(listed).hasSize(2000);
        for (int k = 1; k < listed.length; k++) {
            long a = m.price(listed[k - 1]);
            long b = m.price(listed[k]);
            assertThat(a < b || (a == b && listed[k - 1] < listed[k])).as("order at %d", k).isTrue();
        }
        int[] sortedIds = listed.clone();
        Arrays.sort(sortedIds);
        assertThat(sortedIds[0]).isZero();
    }

    @Test
    void shouldCountOnlyTheProductsPublishedSoFarWhenTheCatalogIsPublishedInParts() {
        CatalogModel m = new CatalogModel(new SyntheticCatalog(3), 1000);
        for (int i = 0; i < 400; i++) {
            m.upsert(i);
        }

        assertThat(m.upserted()).isEqualTo(400);
        assertThat(m.categoryCounts().values().stream().mapToLong(Long::longValue).sum())
                .as("memberships of the first 400 products").isGreaterThanOrEqualTo(400);
        assertThat(m.listing(null, m.filter(-1, 0, Long.MAX_VALUE), CatalogModel.Sort.PRICE)).hasSize(400);

        for (int i = 400; i < 1000; i++) {
            m.upsert(i);
        }
        assertThat(m.listing(null, m.filter(-1, 0, Long.MAX_VALUE), CatalogModel.Sort.PRICE)).hasSize(1000);
    }

    @Test
    void shouldReadTheIndexBackWhenGivenAProductId() {
        assertThat(CatalogModel.index(SyntheticCatalog.productId(12_345))).isEqualTo(12_345);
    }
}
