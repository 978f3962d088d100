package io.catalogviews.api.http;

import io.catalogviews.views.ids.ProductId;

/** Validates product ids at the edge, by the contract's grammar. */
public final class Ids {

    private Ids() {
    }

    public static boolean isValid(String id) {
        return ProductId.isValid(id);
    }

    /** @throws ApiException 400 naming {@code parameter} when {@code id} breaks the grammar */
    public static String require(String parameter, String id) {
        if (!isValid(id)) {
            throw ApiException.badRequest(parameter, "product id must match " + ProductId.GRAMMAR + ", was '"
                    + QueryParams.abbreviate(String.valueOf(id)) + "'");
        }
        return id;
    }
}
