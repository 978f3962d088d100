package io.catalogviews.api.http;

import java.util.regex.Pattern;

/** Validates product ids at the edge, by the contract's grammar. */
public final class Ids {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:~-]{1,128}");

    private Ids() {
    }

    public static boolean isValid(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** @throws ApiException 400 naming {@code parameter} when {@code id} breaks the grammar */
    public static String require(String parameter, String id) {
        if (!isValid(id)) {
            throw ApiException.badRequest(parameter, "product id must match [A-Za-z0-9._:~-]{1,128}, was '"
                    + QueryParams.abbreviate(String.valueOf(id)) + "'");
        }
        return id;
    }
}
