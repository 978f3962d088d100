package io.catalogviews.views.product;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.events.Product;
import io.catalogviews.events.codec.ProductEvents;
import io.catalogviews.views.index.ListingEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProductListingTest {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void shouldCarryTheJsonARowReadServesWhenAnEntryIsDerivedFromTheRow() {
        Product product = ProductEvents.product("p-4", "acme", "phones", 12_345, 3, AT);
        byte[] json = ProductJson.render(product, 7);
        byte[] row = ProductRow.live(7, json, ProductState.encode(product)).encode();

        ListingEntry entry = ProductListing.entryOfRow(row);

        assertThat(entry.json()).as("the entry's JSON, which whole-catalog price pages serve").isEqualTo(json);
        assertThat(entry.priceCents()).isEqualTo(12_345);
        assertThat(entry.version()).isEqualTo(7);
    }

    @Test
    void shouldRenderAgainWhenAnEntryIsDerivedFromARowOfAnOlderRelease() {
        Product product = ProductEvents.product("p-5", "acme", "phones", 100, 1, AT);
        byte[] older = new ProductRow(ProductJson.RENDER_VERSION - 1, 7, false, 0L,
                "{\"old\":\"shape\"}".getBytes(StandardCharsets.UTF_8), ProductState.encode(product)).encode();

        assertThat(ProductListing.entryOfRow(older).json()).isEqualTo(ProductJson.render(product, 7));
    }

    @Test
    void shouldDeriveNoEntryWhenTheRowIsADeletionMarkerOrAbsent() {
        assertThat(ProductListing.entryOfRow(ProductRow.deletionMarker(9, 1).encode())).isNull();
        assertThat(ProductListing.entryOfRow(null)).isNull();
    }
}
