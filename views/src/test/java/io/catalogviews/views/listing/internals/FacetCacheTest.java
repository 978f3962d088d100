package io.catalogviews.views.listing.internals;

import io.catalogviews.views.listing.FacetCounts;
import io.catalogviews.views.listing.ListingFilter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class FacetCacheTest {

    private static final ListingFilter PHONES = filter("phones");
    private static final ListingFilter TABLETS = filter("tablets");

    private static ListingFilter filter(String category) {
        return new ListingFilter(category, List.of(), null, null, null);
    }

    private static FacetCounts counts(long total) {
        return new FacetCounts(total, total, Map.of("acme", total), 100L, 200L);
    }

    @Test
    void shouldServeKeptFacetsWhenNoCommitTouchedTheirCategory() {
        FacetCache cache = new FacetCache(4, 1_000);
        cache.keep(PHONES, Set.of(1), cache.stamp(), counts(3));

        cache.committing(2, Set.of("tablets"));
        cache.committed(2, Set.of("tablets"));

        assertThat(cache.get(PHONES, Set.of(1))).isEqualTo(counts(3));
    }

    @Test
    void shouldServeNothingWhenTheCategoryIsBeingCommitted() {
        FacetCache cache = new FacetCache(4, 1_000);
        cache.keep(PHONES, Set.of(1), cache.stamp(), counts(3));

        cache.committing(1, Set.of("phones"));
        assertThat(cache.get(PHONES, Set.of(1))).as("during the commit").isNull();
        cache.keep(PHONES, Set.of(1), cache.stamp(), counts(4)); // read while the commit was under way: old or new
        cache.committed(1, Set.of("phones"));

        assertThat(cache.get(PHONES, Set.of(1))).as("after the commit").isNull();
    }

    @Test
    void shouldNotKeepAnAnswerWhenACommitOfItsCategoryCameBetweenItsStampAndItsKeeping() {
        FacetCache cache = new FacetCache(4, 1_000);
        long stamp = cache.stamp();

        cache.committing(1, Set.of("phones"));
        cache.committed(1, Set.of("phones"));
        cache.keep(PHONES, Set.of(1), stamp, counts(3));

        assertThat(cache.get(PHONES, Set.of(1))).isNull();
        long after = cache.stamp();
        cache.keep(PHONES, Set.of(1), after, counts(4));
        assertThat(cache.get(PHONES, Set.of(1))).isEqualTo(counts(4));
    }

    @Test
    void shouldDropEveryAnswerOfAPartitionWhenItsCopyIsReset() {
        FacetCache cache = new FacetCache(4, 1_000);
        cache.keep(PHONES, Set.of(1), cache.stamp(), counts(3));
        cache.keep(TABLETS, Set.of(2), cache.stamp(), counts(5));
        long beforeReset = cache.stamp();

        cache.reset(1);
        cache.keep(PHONES, Set.of(1), beforeReset, counts(3));

        assertThat(cache.get(PHONES, Set.of(1))).isNull();
        assertThat(cache.get(TABLETS, Set.of(2))).isEqualTo(counts(5));
    }

    @Test
    void shouldServeNothingWhenAskedForAnotherPartitionThanTheOneItWasReadFrom() {
        FacetCache cache = new FacetCache(4, 1_000);
        cache.keep(PHONES, Set.of(1), cache.stamp(), counts(3));

        assertThat(cache.get(PHONES, Set.of(3))).isNull();
    }

    @Test
    void shouldServeNothingWhenAnyPartitionTheAnswerWasReadFromIsResetOrAskedOver() {
        Set<Integer> every = Set.of(0, 1, 2, 3);
        FacetCache cache = new FacetCache(4, 1_000);
        cache.keep(PHONES, every, cache.stamp(), counts(3));

        assertThat(cache.get(PHONES, every)).as("over the partitions it was read from").isEqualTo(counts(3));
        assertThat(cache.get(PHONES, Set.of(0, 1))).as("over fewer partitions").isNull();
        cache.committing(2, Set.of("tablets"));
        cache.committed(2, Set.of("tablets"));
        assertThat(cache.get(PHONES, every)).as("after another category's commit").isEqualTo(counts(3));
        cache.reset(3);
        assertThat(cache.get(PHONES, every)).as("after one partition's reset").isNull();
    }

    @Test
    void shouldStayWithinItsWeightWhenMoreAnswersAreKeptThanFit() {
        FacetCache cache = new FacetCache(4, 10); // each answer weighs 2: itself and its one brand
        for (int i = 0; i < 6; i++) {
            cache.keep(filter("c" + i), Set.of(0), cache.stamp(), counts(i + 1));
        }

        long kept = 0;
        for (int i = 0; i < 6; i++) {
            kept += cache.get(filter("c" + i), Set.of(0)) == null ? 0 : 1;
        }
        assertThat(kept).isBetween(1L, 5L);
        assertThat(cache.get(filter("c5"), Set.of(0))).as("the last answer kept").isEqualTo(counts(6));
    }

    @Test
    void shouldNeverServeAnOlderAnswerThanTheStoreWhenReadsAndCommitsInterleave() {
        // A model of the store (one version per category, readable once committed) and of readers that take the
        // stamp, read the store and keep the answer in separate steps, interleaved at random with commits (marked,
        // made readable, stamped) and resets. Every answer served from the cache must equal the store's.
        SplittableRandom random = new SplittableRandom(20261202L);
        List<String> categories = List.of("a", "b", "c", "d", "e");
        FacetCache cache = new FacetCache(2, 1_000);
        Map<String, Long> store = new HashMap<>();
        categories.forEach(c -> store.put(c, 0L));
        List<long[]> readers = new ArrayList<>(); // {category index, stamp, value read or -1}
        List<Object[]> commits = new ArrayList<>(); // {category, step}
        int served = 0;
        for (int step = 0; step < 200_000; step++) {
            int op = random.nextInt(7);
            String category = categories.get(random.nextInt(categories.size()));
            int partition = category.charAt(0) % 2;
            switch (op) {
                case 0 -> readers.add(new long[] {categories.indexOf(category), cache.stamp(), -1});
                case 1 -> {
                    if (!readers.isEmpty()) {
                        long[] r = readers.get(random.nextInt(readers.size()));
                        if (r[2] < 0) {
                            r[2] = store.get(categories.get((int) r[0]));
                        }
                    }
                }
                case 2 -> {
                    if (!readers.isEmpty()) {
                        long[] r = readers.remove(random.nextInt(readers.size()));
                        if (r[2] >= 0) {
                            String c = categories.get((int) r[0]);
                            cache.keep(filter(c), Set.of(c.charAt(0) % 2), r[1], counts(r[2]));
                        }
                    }
                }
                case 3 -> {
                    // A partition commits on one thread: one commit at a time.
                    if (commits.stream().noneMatch(c -> ((String) c[0]).charAt(0) % 2 == partition)) {
                        cache.committing(partition, Set.of(category));
                        commits.add(new Object[] {category, 0});
                    }
                }
                case 4 -> {
                    if (!commits.isEmpty()) {
                        Object[] c = commits.get(random.nextInt(commits.size()));
                        String committed = (String) c[0];
                        if ((int) c[1] == 0) {
                            store.merge(committed, 1L, Long::sum); // the store makes the rows readable
                            c[1] = 1;
                        } else {
                            commits.remove(c);
                            cache.committed(committed.charAt(0) % 2, Set.of(committed));
                        }
                    }
                }
                case 5 -> {
                    if (random.nextInt(50) == 0
                            && commits.stream().noneMatch(c -> ((String) c[0]).charAt(0) % 2 == partition)) {
                        for (String c : categories) {
                            if (c.charAt(0) % 2 == partition) {
                                store.merge(c, 1L, Long::sum); // a restore rewrites the partition
                            }
                        }
                        cache.reset(partition);
                    }
                }
                default -> {
                    FacetCounts kept = cache.get(filter(category), Set.of(partition));
                    if (kept != null) {
                        served++;
                        assertThat(kept.total()).as("category %s at step %d", category, step)
                                .isEqualTo(store.get(category));
                    }
                }
            }
        }
        assertThat(served).as("answers served from the cache").isGreaterThan(1_000);
    }
}
