package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
import io.catalogviews.api.routing.ForwardedResponse;
import io.catalogviews.views.StoreNames;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import io.catalogviews.views.routing.Ownership;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class ScatterGatherTest {

    private static final Instance SELF = new Instance("self", 8080);
    private static final Instance OTHER = new Instance("other", 8080);
    private static final Instance THIRD = new Instance("third", 8080);

    /** Metadata that answers each activeOwners call with the next queued plan (the last one repeats). */
    private static final class FakeOwners implements KeyOwners {
        final Deque<Map<Integer, Instance>> plans = new ArrayDeque<>();

        FakeOwners(Map<Integer, Instance> plan) {
            plans.add(plan);
        }

        FakeOwners(Map<Integer, Instance> first, Map<Integer, Instance> then) {
            plans.add(first);
            plans.add(then);
        }

        @Override
        public Instance self() {
            return SELF;
        }

        @Override
        public Ownership ownerOfProduct(String productId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Ownership ownerOfCategory(String category) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<Integer, Instance> activeOwners(String storeName) {
            return plans.size() > 1 ? plans.poll() : plans.peek();
        }

        @Override
        public int partitions() {
            return 4;
        }
    }

    /** Answers with the set of partitions it was asked for; remote behaviour by instance, local by a queue. */
    private static class FakePart implements ScatterGather.Part<Set<Integer>> {
        final Map<Instance, Deque<Integer>> remoteStatuses = new HashMap<>();
        final Deque<ListingResult<Set<Integer>>> localFailures = new ArrayDeque<>();
        final List<String> calls = new ArrayList<>();

        @Override
        public ListingResult<Set<Integer>> local(Set<Integer> partitions) {
            calls.add("local" + partitions);
            ListingResult<Set<Integer>> failure = localFailures.poll();
            return failure != null ? failure : new ListingResult.Ok<>(new TreeSet<>(partitions));
        }

        @Override
        public CompletableFuture<ForwardedResponse> remote(Instance target, Set<Integer> partitions,
                                                           Duration timeout) {
            calls.add(target.host() + partitions);
            Deque<Integer> statuses = remoteStatuses.get(target);
            int status = statuses == null || statuses.isEmpty() ? 200 : statuses.poll();
            if (status == 504) {
                return CompletableFuture.failedFuture(new CompletionException(ApiException.ownerTimeout("slow")));
            }
            byte[] body = status == 200 ? partitions.toString().getBytes(StandardCharsets.UTF_8)
                    : "{\"error\":{}}".getBytes(StandardCharsets.UTF_8);
            return CompletableFuture.supplyAsync(() -> new ForwardedResponse(status,
                    Map.of("Retry-After", List.of("3")), body));
        }

        @Override
        public Set<Integer> decode(byte[] body) {
            String text = new String(body, StandardCharsets.UTF_8);
            Set<Integer> out = new TreeSet<>();
            for (String p : text.replaceAll("[\\[\\] ]", "").split(",")) {
                out.add(Integer.parseInt(p));
            }
            return out;
        }
    }

    private static Set<Integer> covered(ScatterGather.Gathered<Set<Integer>> gathered) {
        Set<Integer> all = new TreeSet<>();
        gathered.answers().forEach(part -> {
            for (int p : part) {
                assertThat(all.add(p)).as("partition %s answered twice", p).isTrue();
            }
        });
        return all;
    }

    private static ApiException failure(CompletableFuture<?> future) {
        Throwable t = catchThrowable(future::join);
        assertThat(t).isNotNull();
        return Responses.toApiException(t);
    }

    private static Map<Integer, Instance> plan(Instance p0, Instance p1, Instance p2, Instance p3) {
        Map<Integer, Instance> plan = new HashMap<>();
        plan.put(0, p0);
        plan.put(1, p1);
        plan.put(2, p2);
        plan.put(3, p3);
        return plan;
    }

    @Test
    void shouldAskEachInstanceForExactlyItsPartitionsWhenAllHaveOwners() {
        FakeOwners owners = new FakeOwners(plan(SELF, OTHER, SELF, THIRD));
        FakePart part = new FakePart();
        ScatterGather.Gathered<Set<Integer>> gathered = new ScatterGather(owners, Duration.ofSeconds(5))
                .gather(StoreNames.PRODUCTS, false, part).join();
        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(part.calls).containsExactlyInAnyOrder("local[0, 2]", "other[1]", "third[3]");
        assertThat(gathered.servedBy()).containsExactly(SELF, OTHER, THIRD);
    }

    @Test
    void shouldAnswerUnavailableWhenAPartitionHasNoOwner() {
        Map<Integer, Instance> plan = plan(SELF, OTHER, SELF, THIRD);
        plan.remove(2);
        FakePart part = new FakePart();
        ApiException e = failure(new ScatterGather(new FakeOwners(plan), Duration.ofSeconds(5))
                .gather(StoreNames.PRODUCTS, false, part));
        assertThat(e.status()).isEqualTo(503);
        assertThat(e.retryAfterSeconds()).isNotNull();
        assertThat(part.calls).isEmpty();
    }

    @Test
    void shouldRetryRefusedPartitionsOnceWithFreshMetadataWhenACalleeNoLongerHostsThem() {
        FakeOwners owners = new FakeOwners(plan(SELF, OTHER, OTHER, THIRD), plan(SELF, THIRD, SELF, THIRD));
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(421)));
        ScatterGather.Gathered<Set<Integer>> gathered = new ScatterGather(owners, Duration.ofSeconds(5))
                .gather(StoreNames.PRODUCTS, false, part).join();
        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(part.calls).containsExactlyInAnyOrder("local[0]", "other[1, 2]", "third[3]", "local[2]",
                "third[1]");
        assertThat(gathered.servedBy()).containsExactly(SELF, THIRD);
    }

    @Test
    void shouldRetryLocalPartitionsWhenTheLocalStoreNoLongerHostsThem() {
        FakeOwners owners = new FakeOwners(plan(SELF, SELF, SELF, SELF), plan(OTHER, OTHER, OTHER, OTHER));
        FakePart part = new FakePart();
        part.localFailures.add(new ListingResult.Failed<>(QueryFailure.notHostedHere("moved")));
        ScatterGather.Gathered<Set<Integer>> gathered = new ScatterGather(owners, Duration.ofSeconds(5))
                .gather(StoreNames.PRODUCTS, false, part).join();
        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(gathered.servedBy()).containsExactly(OTHER);
    }

    @Test
    void shouldAnswerUnavailableWhenRefusedTwice() {
        FakeOwners owners = new FakeOwners(plan(SELF, OTHER, SELF, SELF));
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(421, 421, 421)));
        ApiException e = failure(new ScatterGather(owners, Duration.ofSeconds(5))
                .gather(StoreNames.PRODUCTS, false, part));
        assertThat(e.status()).isEqualTo(503);
        assertThat(part.calls).filteredOn(c -> c.startsWith("other")).hasSize(2);
    }

    @Test
    void shouldAnswerUnavailableWithItsRetryAfterWhenACalleeCannotAnswerNow() {
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(503)));
        ApiException e = failure(new ScatterGather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)),
                Duration.ofSeconds(5)).gather(StoreNames.PRODUCTS, false, part));
        assertThat(e.status()).isEqualTo(503);
        assertThat(e.retryAfterSeconds()).isEqualTo(3);
    }

    @Test
    void shouldAnswerOwnerTimeoutWhenACalleeDoesNotAnswerInTime() {
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(504)));
        ApiException e = failure(new ScatterGather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)),
                Duration.ofSeconds(5)).gather(StoreNames.PRODUCTS, false, part));
        assertThat(e.status()).isEqualTo(504);
        assertThat(e.code()).isEqualTo("owner_timeout");
    }

    @Test
    void shouldAnswerUnavailableWhenACalleeAnswersGarbage() {
        FakePart part = new FakePart() {
            @Override
            public Set<Integer> decode(byte[] body) {
                throw new Wire.Malformed("garbage");
            }
        };
        ApiException e = failure(new ScatterGather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)),
                Duration.ofSeconds(5)).gather(StoreNames.PRODUCTS, false, part));
        assertThat(e.status()).isEqualTo(503);
    }

    @Test
    void shouldAnswerUnavailableWithoutRetryWhenLocalStoreIsRestoring() {
        FakePart part = new FakePart();
        part.localFailures.add(new ListingResult.Failed<>(QueryFailure.retryLater("restoring")));
        ApiException e = failure(new ScatterGather(new FakeOwners(plan(SELF, SELF, SELF, SELF)),
                Duration.ofSeconds(5)).gather(StoreNames.PRODUCTS, false, part));
        assertThat(e.status()).isEqualTo(503);
        assertThat(part.calls).containsExactly("local[0, 1, 2, 3]");
    }

    @Test
    void shouldNeverForwardWhenTheRequestWasForwarded() {
        FakePart part = new FakePart();
        ApiException e = failure(new ScatterGather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)),
                Duration.ofSeconds(5)).gather(StoreNames.PRODUCTS, true, part));
        assertThat(e.status()).isEqualTo(503);
        assertThat(part.calls).isEmpty();

        ScatterGather.Gathered<Set<Integer>> local = new ScatterGather(new FakeOwners(plan(SELF, SELF, SELF, SELF)),
                Duration.ofSeconds(5)).gather(StoreNames.PRODUCTS, true, part).join();
        assertThat(covered(local)).containsExactly(0, 1, 2, 3);
    }
}
