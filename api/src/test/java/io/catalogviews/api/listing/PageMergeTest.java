package io.catalogviews.api.listing;

import io.catalogviews.views.listing.ListingItem;
import io.catalogviews.views.listing.ListingPage;
import io.catalogviews.views.listing.Position;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class PageMergeTest {

    private static ListingItem item(long sortValue, String id) {
        return new ListingItem(new Position(sortValue, id), ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> ids(ListingPage page) {
        return page.items().stream().map(i -> i.position().id()).toList();
    }

    @Test
    void shouldInterleaveByPositionWhenPagesOverlap() {
        ListingPage a = new ListingPage(List.of(item(1, "a"), item(3, "c"), item(5, "e")), false);
        ListingPage b = new ListingPage(List.of(item(2, "b"), item(3, "b"), item(4, "d")), false);
        ListingPage merged = PageMerge.merge(List.of(a, b), 10);
        assertThat(ids(merged)).containsExactly("a", "b", "b", "c", "d", "e");
        assertThat(merged.more()).isFalse();
    }

    @Test
    void shouldBreakTiesByIdBytesWhenSortValuesAreEqual() {
        ListingPage a = new ListingPage(List.of(item(7, "p-10"), item(7, "p-9")), false);
        ListingPage b = new ListingPage(List.of(item(7, "p-1"), item(7, "p-2")), false);
        assertThat(ids(PageMerge.merge(List.of(a, b), 10))).containsExactly("p-1", "p-10", "p-2", "p-9");
    }

    @Test
    void shouldCompareSortValuesUnsignedWhenMerging() {
        ListingPage a = new ListingPage(List.of(item(-1L, "max")), false);
        ListingPage b = new ListingPage(List.of(item(0L, "zero"), item(Long.MAX_VALUE, "mid")), false);
        assertThat(ids(PageMerge.merge(List.of(a, b), 10))).containsExactly("zero", "mid", "max");
    }

    @Test
    void shouldReportMoreWhenItemsAreLeftOver() {
        ListingPage a = new ListingPage(List.of(item(1, "a"), item(3, "c")), false);
        ListingPage b = new ListingPage(List.of(item(2, "b")), false);
        ListingPage merged = PageMerge.merge(List.of(a, b), 2);
        assertThat(ids(merged)).containsExactly("a", "b");
        assertThat(merged.more()).isTrue();
    }

    @Test
    void shouldReportMoreWhenAnyPageHadMore() {
        ListingPage a = new ListingPage(List.of(item(1, "a"), item(2, "b")), true);
        ListingPage b = new ListingPage(List.of(), false);
        ListingPage merged = PageMerge.merge(List.of(a, b), 2);
        assertThat(merged.more()).isTrue();
    }

    @Test
    void shouldReportNoMoreWhenEverythingFitsExactly() {
        ListingPage a = new ListingPage(List.of(item(1, "a")), false);
        ListingPage b = new ListingPage(List.of(item(2, "b")), false);
        ListingPage merged = PageMerge.merge(List.of(a, b), 2);
        assertThat(ids(merged)).containsExactly("a", "b");
        assertThat(merged.more()).isFalse();
    }

    @Test
    void shouldGiveEmptyPageWhenNothingMatches() {
        assertThat(PageMerge.merge(List.of(), 5)).isEqualTo(new ListingPage(List.of(), false));
        ListingPage merged = PageMerge.merge(List.of(new ListingPage(List.of(), false)), 5);
        assertThat(merged.items()).isEmpty();
        assertThat(merged.more()).isFalse();
    }

    @Test
    void shouldWalkTheWholeListingWhenPagedAcrossPartitions() {
        // Model: random items spread over 12 partitions; paging by merge must list each exactly once, in order.
        Random random = new Random(7);
        List<List<ListingItem>> partitions = new ArrayList<>();
        TreeSet<Position> all = new TreeSet<>();
        for (int p = 0; p < 12; p++) {
            List<ListingItem> items = new ArrayList<>();
            for (int i = 0; i < random.nextInt(40); i++) {
                ListingItem it = item(random.nextInt(20), "p" + p + "-" + i);
                items.add(it);
                all.add(it.position());
            }
            items.sort((x, y) -> x.position().compareTo(y.position()));
            partitions.add(items);
        }
        List<Position> walked = new ArrayList<>();
        Position after = null;
        int limit = 7;
        while (true) {
            List<ListingPage> pages = new ArrayList<>();
            for (List<ListingItem> items : partitions) {
                Position from = after;
                List<ListingItem> rest = items.stream()
                        .filter(i -> from == null || i.position().compareTo(from) > 0).toList();
                pages.add(new ListingPage(rest.subList(0, Math.min(limit, rest.size())), rest.size() > limit));
            }
            ListingPage page = PageMerge.merge(pages, limit);
            page.items().forEach(i -> walked.add(i.position()));
            if (!page.more()) {
                break;
            }
            assertThat(page.items()).hasSize(limit);
            after = page.items().get(limit - 1).position();
        }
        assertThat(walked).containsExactlyElementsOf(all);
    }
}
