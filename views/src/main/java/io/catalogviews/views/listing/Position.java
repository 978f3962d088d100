package io.catalogviews.views.listing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A place in a sorted listing: the sort value (see {@link io.catalogviews.views.index.SortOrder}, compared
 * unsigned) and the product id (compared by UTF-8 bytes). A cursor carries the position of the last item served.
 */
public record Position(long sortValue, String id) implements Comparable<Position> {

    @Override
    public int compareTo(Position o) {
        int bySort = Long.compareUnsigned(sortValue, o.sortValue);
        return bySort != 0 ? bySort : Arrays.compareUnsigned(id.getBytes(StandardCharsets.UTF_8),
                o.id.getBytes(StandardCharsets.UTF_8));
    }
}
