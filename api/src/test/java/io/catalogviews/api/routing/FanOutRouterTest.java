package io.catalogviews.api.routing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The fan-out over partitions as whole-catalog reads use it (no standbys): one round per metadata snapshot, a second
 * round for partitions that moved, and the refusals of {@link ReadFailures}. The batch's standby fallback over real
 * sockets is in {@code FailoverReadsHttpTest}.
 */
class FanOutRouterTest {

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
        public Map<Integer, Instance> activeOwners(String storeName) {
            return plans.size() > 1 ? plans.poll() : plans.peek();
        }

        @Override
        public int partitions() {
            return 4;
        }
    }

    /**
     * Answers with the set of partitions it was asked for; remote behaviour by instance, local by a queue. It is the
     * read and the peers at once, so that one list shows every call in the order made.
     */
    private static class FakePart implements FanOutRead<Integer, Set<Integer>>, Peers {
        final Map<Instance, Deque<Integer>> remoteStatuses = new HashMap<>();
        final Deque<LocalRead<Set<Integer>>> localFailures = new ArrayDeque<>();
        final List<String> calls = new ArrayList<>();
        /** Standbys per partition; they answer only when {@link #standbysMayAnswer}. */
        final Map<Integer, List<Instance>> standbys = new HashMap<>();
        final Map<Instance, String> standbyLags = new HashMap<>();
        boolean standbysMayAnswer;
        KeyOwners owners;

        @Override
        public String view() {
            return "test view";
        }

        @Override
        public Function<Integer, Ownership> owners() {
            Map<Integer, Instance> active = owners.activeOwners("test-store");
            return p -> new Ownership(p, Optional.ofNullable(active.get(p)), standbys.getOrDefault(p, List.of()));
        }

        @Override
        public boolean standbyMayAnswer() {
            return standbysMayAnswer;
        }

        @Override
        public ReplicaCopy<Set<Integer>> anyCopy(List<Integer> partitions) {
            calls.add("copy" + partitions);
            return new ReplicaCopy<>(new LocalRead.Answered<>(new TreeSet<>(partitions)),
                    Long.parseLong(standbyLags.getOrDefault(SELF, "1")));
        }

        @Override
        public LocalRead<Set<Integer>> local(List<Integer> partitions) {
            calls.add("local" + partitions);
            LocalRead<Set<Integer>> failure = localFailures.poll();
            return failure != null ? failure : new LocalRead.Answered<>(new TreeSet<>(partitions));
        }

        @Override
        public PeerRequest request(List<Integer> partitions) {
            return PeerRequest.post("/internal/test", partitions.toString().getBytes(StandardCharsets.UTF_8),
                    "text/plain");
        }

        @Override
        public CompletableFuture<ForwardedResponse> send(Instance target, PeerRequest request, Duration timeout) {
            String partitions = new String(request.body(), StandardCharsets.UTF_8);
            if (request.replicaRead()) {
                calls.add(target.host() + " replica" + partitions);
                return CompletableFuture.supplyAsync(() -> new ForwardedResponse(200, Map.of("X-Stale", List.of("true"),
                        "X-Lag-Records", List.of(standbyLags.getOrDefault(target, "1"))),
                        partitions.getBytes(StandardCharsets.UTF_8)));
            }
            calls.add(target.host() + partitions);
            Deque<Integer> statuses = remoteStatuses.get(target);
            int status = statuses == null || statuses.isEmpty() ? 200 : statuses.poll();
            if (status == 504) {
                return CompletableFuture.failedFuture(new CompletionException(ApiException.ownerTimeout("slow")));
            }
            byte[] body = status == 200 ? partitions.getBytes(StandardCharsets.UTF_8)
                    : "{\"error\":{}}".getBytes(StandardCharsets.UTF_8);
            return CompletableFuture.supplyAsync(() -> new ForwardedResponse(status,
                    Map.of("Retry-After", List.of("3")), body));
        }

        @Override
        public Set<Integer> decode(List<Integer> partitions, byte[] body) {
            String text = new String(body, StandardCharsets.UTF_8);
            Set<Integer> out = new TreeSet<>();
            for (String p : text.replaceAll("[\\[\\] ]", "").split(",")) {
                out.add(Integer.parseInt(p));
            }
            return out;
        }
    }

    /** Gathers partitions 0..3 as {@code SELF} would, with {@code owners} as the metadata. */
    private static CompletableFuture<Gathered<Set<Integer>>> gather(KeyOwners owners, FakePart part,
                                                                     boolean forwarded) {
        return gather(owners, part, false, forwarded);
    }

    private static CompletableFuture<Gathered<Set<Integer>>> gather(KeyOwners owners, FakePart part, boolean fresh,
                                                                     boolean forwarded) {
        part.owners = owners;
        return new FanOutRouter(SELF, part, new StaleReads(SELF, 1), Duration.ofSeconds(5))
                .gather(List.of(0, 1, 2, 3), part, fresh, forwarded ? new PeerCall(true, false, null)
                        : PeerCall.PUBLIC);
    }

    private static Set<Integer> covered(Gathered<Set<Integer>> gathered) {
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
        Gathered<Set<Integer>> gathered = gather(owners, part, false).join();
        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(part.calls).containsExactlyInAnyOrder("local[0, 2]", "other[1]", "third[3]");
        assertThat(gathered.servedBy()).containsExactly(SELF, OTHER, THIRD);
    }

    @Test
    void shouldAnswerUnavailableWhenAPartitionHasNoOwner() {
        Map<Integer, Instance> plan = plan(SELF, OTHER, SELF, THIRD);
        plan.remove(2);
        FakePart part = new FakePart();
        ApiException e = failure(gather(new FakeOwners(plan), part, false));
        assertThat(e.status()).isEqualTo(503);
        assertThat(e.retryAfterSeconds()).isNotNull();
        assertThat(part.calls).isEmpty();
    }

    @Test
    void shouldRetryRefusedPartitionsOnceWithFreshMetadataWhenACalleeNoLongerHostsThem() {
        FakeOwners owners = new FakeOwners(plan(SELF, OTHER, OTHER, THIRD), plan(SELF, THIRD, SELF, THIRD));
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(421)));
        Gathered<Set<Integer>> gathered = gather(owners, part, false).join();
        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(part.calls).containsExactlyInAnyOrder("local[0]", "other[1, 2]", "third[3]", "local[2]",
                "third[1]");
        assertThat(gathered.servedBy()).containsExactly(SELF, THIRD);
    }

    @Test
    void shouldRetryLocalPartitionsWhenTheLocalStoreNoLongerHostsThem() {
        FakeOwners owners = new FakeOwners(plan(SELF, SELF, SELF, SELF), plan(OTHER, OTHER, OTHER, OTHER));
        FakePart part = new FakePart();
        part.localFailures.add(new LocalRead.Refused<>(QueryFailure.notHostedHere("moved")));
        Gathered<Set<Integer>> gathered = gather(owners, part, false).join();
        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(gathered.servedBy()).containsExactly(OTHER);
    }

    @Test
    void shouldAnswerUnavailableWhenRefusedTwice() {
        FakeOwners owners = new FakeOwners(plan(SELF, OTHER, SELF, SELF));
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(421, 421, 421)));
        ApiException e = failure(gather(owners, part, false));
        assertThat(e.status()).isEqualTo(503);
        assertThat(part.calls).filteredOn(c -> c.startsWith("other")).hasSize(2);
    }

    @Test
    void shouldAnswerUnavailableWithItsRetryAfterWhenACalleeCannotAnswerNow() {
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(503)));
        ApiException e = failure(gather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)), part, false));
        assertThat(e.status()).isEqualTo(503);
        assertThat(e.retryAfterSeconds()).isEqualTo(3);
    }

    @Test
    void shouldAnswerOwnerTimeoutWhenACalleeDoesNotAnswerInTime() {
        FakePart part = new FakePart();
        part.remoteStatuses.put(OTHER, new ArrayDeque<>(List.of(504)));
        ApiException e = failure(gather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)), part, false));
        assertThat(e.status()).isEqualTo(504);
        assertThat(e.code()).isEqualTo("owner_timeout");
    }

    @Test
    void shouldAnswerUnavailableWhenACalleeAnswersGarbage() {
        FakePart part = new FakePart() {
            @Override
            public Set<Integer> decode(List<Integer> partitions, byte[] body) {
                throw new IllegalStateException("garbage");
            }
        };
        ApiException e = failure(gather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)), part, false));
        assertThat(e.status()).isEqualTo(503);
    }

    @Test
    void shouldAnswerUnavailableWithoutRetryWhenLocalStoreIsRestoring() {
        FakePart part = new FakePart();
        part.localFailures.add(new LocalRead.Refused<>(QueryFailure.retryLater("restoring")));
        ApiException e = failure(gather(new FakeOwners(plan(SELF, SELF, SELF, SELF)), part, false));
        assertThat(e.status()).isEqualTo(503);
        assertThat(part.calls).containsExactly("local[0, 1, 2, 3]");
    }

    @Test
    void shouldNeverForwardWhenTheRequestWasForwarded() {
        FakePart part = new FakePart();
        ApiException e = failure(gather(new FakeOwners(plan(SELF, OTHER, SELF, SELF)), part, true));
        assertThat(e.status()).isEqualTo(503);
        assertThat(part.calls).isEmpty();

        Gathered<Set<Integer>> local = gather(new FakeOwners(plan(SELF, SELF, SELF, SELF)), part, true).join();
        assertThat(covered(local)).containsExactly(0, 1, 2, 3);
    }

    // ---------------------------------------------------------------- standbys (reads that allow them: a batch)

    /** OTHER owns 1 and 2 and refuses; partition 1 has its standby here, partition 2 on THIRD. */
    private static FakePart standbysFor(Instance owner) {
        FakePart part = new FakePart();
        part.standbysMayAnswer = true;
        part.standbys.put(1, List.of(SELF));
        part.standbys.put(2, List.of(THIRD));
        part.remoteStatuses.put(owner, new ArrayDeque<>(List.of(503)));
        return part;
    }

    @Test
    void shouldAnswerFromTheStandbysOfItsPartitionsWithTheLargestLagWhenAnOwnerCannotAnswer() {
        FakePart part = standbysFor(OTHER);
        part.standbyLags.put(THIRD, "0");

        Gathered<Set<Integer>> gathered = gather(new FakeOwners(plan(SELF, OTHER, OTHER, THIRD)), part, false).join();

        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(gathered.stale()).isTrue();
        assertThat(gathered.lagRecords()).isEqualTo(1);
        assertThat(gathered.servedBy()).containsExactlyInAnyOrder(SELF, THIRD);
        assertThat(part.calls).containsExactlyInAnyOrder("local[0]", "other[1, 2]", "third[3]", "copy[1]",
                "third replica[2]");
    }

    @Test
    void shouldRefuseTheWholeReadWithTheOwnersRetryAfterWhenFreshIsAskedOrTheRequestWasForwarded() {
        FakePart fresh = standbysFor(OTHER);
        ApiException refused = failure(gather(new FakeOwners(plan(SELF, OTHER, OTHER, SELF)), fresh, true, false));
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.retryAfterSeconds()).isEqualTo(3);
        assertThat(fresh.calls).noneMatch(call -> call.contains("replica") || call.startsWith("copy"));

        FakePart forwarded = standbysFor(OTHER);
        forwarded.localFailures.add(new LocalRead.Refused<>(QueryFailure.retryLater("restoring")));
        assertThat(failure(gather(new FakeOwners(plan(SELF, SELF, SELF, SELF)), forwarded, false, true)).status())
                .isEqualTo(503);
        assertThat(forwarded.calls).as("a forwarded read fails over nowhere: its caller does")
                .containsExactly("local[0, 1, 2, 3]");
    }

    @Test
    void shouldAskTheStandbyAtOnceWhenAPartitionHasNoOwner() {
        Map<Integer, Instance> plan = plan(SELF, SELF, SELF, SELF);
        plan.remove(2);
        FakePart part = standbysFor(OTHER);

        Gathered<Set<Integer>> gathered = gather(new FakeOwners(plan), part, false).join();

        assertThat(covered(gathered)).containsExactly(0, 1, 2, 3);
        assertThat(gathered.servedBy()).containsExactly(SELF, THIRD);
        assertThat(part.calls).containsExactlyInAnyOrder("local[0, 1, 3]", "third replica[2]");
    }

    @Test
    void shouldNotMarkTheAnswerStaleWhenEveryOwnerAnswers() {
        Gathered<Set<Integer>> gathered = gather(new FakeOwners(plan(SELF, OTHER, SELF, THIRD)), new FakePart(), false)
                .join();
        assertThat(gathered.stale()).isFalse();
        assertThat(gathered.lagRecords()).isEqualTo(-1);
    }
}
