package io.catalogviews.bench.results;

/** A deep page the {@code deep-page} class asks ({@code deepPages}): its category, page number and first item. */
public record DeepPage(String category, int page, int offset) {
}
