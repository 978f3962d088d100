package io.catalogviews.bench.peer;

import io.catalogviews.bench.catalog.CatalogModel;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PgPlansTest {

    @Test
    void shouldRunEveryClassWithAutoWhenNoneIsNamed() {
        assertThat(PgPlans.defaults().modeOf("category-price")).isEqualTo(PgPlans.AUTO);
    }

    @Test
    void shouldReadBackTheModesItWroteWhenSentAsText() {
        PgPlans plans = PgPlans.defaults().with("facets", PgPlans.CUSTOM).with("page-1", PgPlans.AUTO);

        assertThat(plans.text()).isEqualTo("facets:force_custom_plan,page-1:auto");
        assertThat(PgPlans.parse(plans.text())).isEqualTo(plans);
        assertThat(PgPlans.parse("")).isEqualTo(PgPlans.defaults());
    }

    @Test
    void shouldRefuseAModeNamedWrongWhenParsed() {
        assertThatThrownBy(() -> PgPlans.parse("facets:force_generic_plan"))
                .hasMessageContaining("force_generic_plan");
        assertThatThrownBy(() -> PgPlans.parse("facets")).hasMessageContaining("class:mode");
    }

    @Test
    void shouldNumberThePlaceholdersAndWriteLiteralsWhenPreparingAnExplain() {
        PgQuery page = PgQuery.page("phones", "acme", 100L, null, CatalogModel.Sort.PRICE, 60, 250L, "p-0000003");

        assertThat(page.queryClass()).isEqualTo("category-price");
        assertThat(PgExplain.numbered(page.sql())).contains("c.category = $1", "c.brand = $2", "LIMIT $6")
                .doesNotContain("?");
        assertThat(PgExplain.arguments(page.params())).isEqualTo("('phones', 'acme', 100, 250, 'p-0000003', 61)");
        assertThat(PgExplain.literal(new String[]{"p-1", "o'brien"})).isEqualTo("ARRAY['p-1','o''brien']::text[]");
    }

    @Test
    void shouldNameTheClassOfEveryPageWhenItsFiltersDiffer() {
        assertThat(PgQuery.page(null, null, 5L, null, CatalogModel.Sort.PRICE, 60, null, null).queryClass()).isEqualTo("catalog-page");
        assertThat(PgQuery.page("c", "b", 1L, 9L, CatalogModel.Sort.UPDATED_DESC, 60, null, null).queryClass())
                .isEqualTo("category-updated");
        assertThat(PgQuery.page("c", "b", 1L, 9L, CatalogModel.Sort.PRICE_DESC, 60, null, null).queryClass())
                .isEqualTo("category-price-desc");
        assertThat(PgQuery.page("c", null, null, null, CatalogModel.Sort.PRICE, 60, null, null).queryClass()).isEqualTo("page-1");
        assertThat(PgQuery.page("c", null, null, null, CatalogModel.Sort.PRICE, 60, 10L, "p-1").queryClass()).isEqualTo("deep-page");
        assertThat(List.of(PgQuery.facets("c").queryClass(),
                PgQuery.filteredFacets("c", List.of("b"), null, null, true).queryClass())).containsOnly("facets");
    }
}
