package io.catalogviews.api.product;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.query.ProductCommits;
import io.catalogviews.views.query.ProductLookup;
import io.catalogviews.views.query.ProductQueries;
import io.catalogviews.views.query.QueryFailure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The rules of {@link VersionWaiters} over an in-memory product view whose commits the test announces: woken by a
 * commit of the product, never by time alone before the deadline, a fresh read at the deadline, a read at once when
 * the product's partition closes here, 503 beyond the cap. Product {@code pN} is in partition N mod 2.
 */
class VersionWaitersTest {

    private final Map<String, ProductLookup> store = new ConcurrentHashMap<>();
    private final AtomicInteger reads = new AtomicInteger();
    private ProductCommits.Listener listener;
    private VersionWaiters waiters;

    private VersionWaiters start(int max) {
        ProductQueries queries = new ProductQueries() {
            @Override
            public ProductLookup get(String id) {
                reads.incrementAndGet();
                return store.getOrDefault(id, ProductLookup.ABSENT);
            }

            @Override
            public List<ProductLookup> getAll(List<String> ids) {
                return ids.stream().map(this::get).toList();
            }

            @Override
            public ReplicaRead getFromAnyReplica(String id) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ReplicaBatch getAllFromAnyReplica(List<String> ids) {
                throw new UnsupportedOperationException();
            }
        };
        waiters = new VersionWaiters(queries, l -> listener = l,
                id -> Integer.parseInt(id.substring(1)) % 2, max);
        return waiters;
    }

    @AfterEach
    void stop() {
        if (waiters != null) {
            waiters.close();
        }
    }

    private static ProductLookup.Found version(long v) {
        return new ProductLookup.Found(v, new byte[] {'{', '}'});
    }

    @Test
    void shouldAnswerWhenACommitOfTheProductBringsTheVersionWithoutReadingOnItsOwn() {
        start(10);
        store.put("p1", version(1));
        CompletableFuture<ProductLookup> wait = waiters.await("p1", 2, System.currentTimeMillis() + 60_000);
        await().alias("the waiter read once after registering").atMost(Duration.ofSeconds(5))
                .until(() -> reads.get() == 1);

        listener.committed(Set.of("p7")); // another product: nothing to read
        store.put("p1", version(2)); // written, but not yet announced as committed: a reader must not see it early
        assertThat(wait).isNotDone();
        listener.committed(Set.of("p1", "p3"));

        assertThat(wait).succeedsWithin(Duration.ofSeconds(5)).extracting(ProductLookup::currentVersion)
                .isEqualTo(2L);
        assertThat(reads.get()).as("reads: one on registering, one for the commit of p1").isEqualTo(2);
        assertThat(waiters.waiting()).isZero();
    }

    @Test
    void shouldAnswerWithAFreshReadNoEarlierThanTheDeadlineWhenTheVersionNeverComes() throws Exception {
        start(10);
        store.put("p1", version(1));
        long deadline = System.currentTimeMillis() + 300;

        CompletableFuture<Long> ended = waiters.await("p1", 2, deadline)
                .thenApply(lookup -> {
                    assertThat(lookup.currentVersion()).isEqualTo(1L);
                    return System.currentTimeMillis();
                });

        assertThat(ended.get(5, TimeUnit.SECONDS)).isBetween(deadline, deadline + 1_000);
    }

    @Test
    void shouldReadAtOnceWhenThePartitionOfTheProductClosesHere() {
        start(10);
        store.put("p1", version(1));
        CompletableFuture<ProductLookup> other = waiters.await("p2", 2, System.currentTimeMillis() + 60_000);
        CompletableFuture<ProductLookup> moved = waiters.await("p1", 2, System.currentTimeMillis() + 60_000);
        await().alias("both waiters read once").atMost(Duration.ofSeconds(5)).until(() -> reads.get() == 2);
        QueryFailure gone = QueryFailure.notHostedHere("partition 1 moved");
        store.put("p1", new ProductLookup.Failed(gone));
        store.put("p2", new ProductLookup.Failed(gone));

        listener.closed(1);

        assertThat(moved).succeedsWithin(Duration.ofSeconds(5)).isEqualTo(new ProductLookup.Failed(gone));
        assertThat(other).as("a waiter of partition 0").isNotDone();
    }

    @Test
    void shouldRefuseWithUnavailableWhenTheCapIsReached() {
        start(2);
        waiters.await("p1", 2, System.currentTimeMillis() + 60_000);
        waiters.await("p1", 3, System.currentTimeMillis() + 60_000);

        assertThatThrownBy(() -> waiters.await("p2", 2, System.currentTimeMillis() + 60_000))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.retryAfterSeconds()).isEqualTo(1);
                });
        assertThat(waiters.waiting()).isEqualTo(2);
    }
}
