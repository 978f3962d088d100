package io.catalogviews.api.routing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.http.Responses;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.Ownership;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Answers a read over many keys ({@link FanOutRead}: the ids of a batch, the partitions of a whole-catalog query)
 * by asking each instance for exactly the keys it holds (DESIGN.md decision 9), with the rules of
 * {@link KeyedRouter} for each group of keys:
 * <ol>
 *   <li>One round: group the keys by the active owner of their partition in the current metadata, ask every other
 *       owner for its keys through its internal route in parallel (each call ends by the read's deadline) and read
 *       this instance's keys locally.</li>
 *   <li>A group whose owner says it does not hold them any more (421 {@value ReadFailures#NOT_HOSTED_CODE}, or a
 *       local {@link QueryFailure.Kind#NOT_HOSTED_HERE}) gets ONE more round with fresh metadata, within the same
 *       deadline.</li>
 *   <li>A group whose owner cannot answer (none, 503, unreachable, timeout, an answer it cannot read, or moved
 *       again) is answered by standbys of its partitions when the read allows it ({@link
 *       FanOutRead#standbyMayAnswer()}, not {@code fresh=true}, not forwarded), each asked with
 *       {@link Forwarding#REPLICA_READ} and its own forward timeout; otherwise, or when one of them cannot, the
 *       whole read fails with the owner's refusal ({@link ReadFailures}). Every key is answered exactly once, or
 *       the read fails: never a silently shorter answer.</li>
 *   <li>A read that was itself forwarded is answered from this instance's keys only: if any key lives elsewhere it
 *       is refused with 503, so forwarding never loops.</li>
 * </ol>
 * {@link #readHere} is the callee's side: the internal route answers only from this instance's copies.
 */
public final class FanOutRouter {

    private static final Logger LOG = LoggerFactory.getLogger(FanOutRouter.class);

    private final Instance self;
    private final Peers peers;
    private final StaleReads stale;
    private final Duration forwardTimeout;

    public FanOutRouter(Instance self, Peers peers, StaleReads stale, Duration forwardTimeout) {
        this.self = self;
        this.peers = peers;
        this.stale = stale;
        this.forwardTimeout = forwardTimeout;
    }

    /**
     * Gathers the answers for {@code keys} (distinct), see the class comment.
     *
     * @param fresh  {@code fresh=true}: no standby answers
     * @param caller what a peer asked of the request being answered ({@link PeerCall#of}): when it was forwarded,
     *               nothing is forwarded again; its deadline, when earlier than the forward timeout, bounds the read
     * @return the answers, or a future failed with an {@link ApiException} (503 or 504)
     */
    public <K, T> CompletableFuture<Gathered<T>> gather(List<K> keys, FanOutRead<K, T> read, boolean fresh,
                                                        PeerCall caller) {
        return new Gathering<>(read, fresh, caller.forwarded(), caller.within(forwardTimeout)).round(keys, true)
                .thenApply(FanOutRouter::gathered);
    }

    /**
     * The internal route's side: reads {@code keys} from this instance only, and names it in {@code X-Served-By}.
     * With a signed {@link Forwarding#REPLICA_READ} (on a read a standby may answer) from its copies, active or standby,
     * marked stale, if close enough to their changelogs; otherwise from its active copies.
     *
     * @throws ApiException 421 {@value ReadFailures#NOT_HOSTED_CODE} when the metadata or the store says another
     *                      instance holds a key's partition now, 503 when the store cannot be read now, 504 when the
     *                      caller's deadline passed
     */
    public <K, T> T readHere(Context ctx, List<K> keys, FanOutRead<K, T> read) {
        PeerCall caller = PeerCall.of(ctx);
        if (caller.deadlinePassed()) {
            throw ReadFailures.callerOutOfTime();
        }
        T value;
        if (read.standbyMayAnswer() && caller.replicaRead()) {
            ReplicaCopy<T> copy = read.anyCopy(keys);
            if (copy.read() instanceof LocalRead.Refused<T> refused) {
                throw ReadFailures.refusal(refused.failure(), read.view());
            }
            if (!stale.closeEnough(copy.lagRecords())) {
                throw ReadFailures.tooFarBehind();
            }
            StaleReads.mark(ctx, copy.lagRecords());
            value = ((LocalRead.Answered<T>) copy.read()).value();
        } else {
            Function<K, Ownership> owners = read.owners();
            for (K key : keys) {
                Optional<Instance> owner = owners.apply(key).active();
                if (owner.isPresent() && !owner.get().equals(self)) {
                    throw ReadFailures.notHosted();
                }
            }
            LocalRead<T> local = read.local(keys);
            if (local instanceof LocalRead.Refused<T> refused) {
                throw ReadFailures.internalRefusal(refused.failure(), read.view());
            }
            value = ((LocalRead.Answered<T>) local).value();
        }
        ctx.header(Forwarding.SERVED_BY, self.hostPort());
        return value;
    }

    /** One group's answer: who read it, and whether a standby did (with its lag). */
    private record Part<T>(Instance servedBy, T value, boolean stale, long lagRecords) {

        static <T> Part<T> fromOwner(Instance owner, T value) {
            return new Part<>(owner, value, false, -1);
        }
    }

    /** How one owner's group ended in a round. */
    private sealed interface Outcome<K, T> {
        record Answered<K, T>(Part<T> part) implements Outcome<K, T> {
        }

        record Moved<K, T>(List<K> keys) implements Outcome<K, T> {
        }

        record Failed<K, T>(List<K> keys, ApiException refusal) implements Outcome<K, T> {
        }
    }

    /** The state of one gather: the read, how the caller asked, and its deadline. */
    private final class Gathering<K, T> {
        private final FanOutRead<K, T> read;
        private final boolean fresh;
        private final boolean forwarded;
        private final Deadline deadline;

        Gathering(FanOutRead<K, T> read, boolean fresh, boolean forwarded, Deadline deadline) {
            this.read = read;
            this.fresh = fresh;
            this.forwarded = forwarded;
            this.deadline = deadline;
        }

        CompletableFuture<List<Part<T>>> round(List<K> keys, boolean mayRetry) {
            if (deadline.passed()) {
                return CompletableFuture.failedFuture(ReadFailures.outOfTime(read.view()));
            }
            Function<K, Ownership> owners = once(read.owners());
            FanOutPlan<K> plan = FanOutPlan.of(keys, owners);
            if (forwarded && !plan.allOwnedBy(self)) {
                // Metadata moved while the request travelled: refuse, never forward a second time.
                K elsewhere = keys.stream().filter(k -> !owners.apply(k).active().equals(Optional.of(self)))
                        .findFirst().orElseThrow();
                return CompletableFuture.failedFuture(ReadFailures.noOwner(read.view(),
                        owners.apply(elsewhere).partition()));
            }
            // Keys without an owner go to standbys at once; when some cannot, nobody is asked anything.
            CompletableFuture<List<Part<T>>> ownerless = plan.ownerless().isEmpty()
                    ? CompletableFuture.completedFuture(List.of())
                    : fallBack(plan.ownerless(), owners, ReadFailures.noOwner(read.view(),
                    owners.apply(plan.ownerless().get(0)).partition()));
            if (ownerless.isCompletedExceptionally()) {
                return ownerless;
            }
            List<CompletableFuture<Outcome<K, T>>> outcomes = new ArrayList<>();
            // Other owners first, so that their calls run while this instance reads its own keys.
            plan.byOwner().forEach((owner, ownerKeys) -> {
                if (!owner.equals(self)) {
                    outcomes.add(ask(owner, ownerKeys));
                }
            });
            List<K> localKeys = plan.byOwner().get(self);
            if (localKeys != null) {
                Outcome<K, T> local = readLocal(localKeys);
                if (local instanceof Outcome.Failed<K, T> failed && !read.standbyMayAnswer()) {
                    return CompletableFuture.failedFuture(failed.refusal());
                }
                outcomes.add(read.ownAnswerLast() ? outcomes.size() : 0, CompletableFuture.completedFuture(local));
            }
            return allOf(outcomes)
                    .thenCompose(ignored -> settle(outcomes.stream().map(CompletableFuture::join).toList(), owners,
                            mayRetry))
                    .thenCompose(parts -> ownerless.thenApply(standbyParts -> concat(List.of(parts, standbyParts))));
        }

        /** The answers of a round's groups, with standbys for the groups that failed and a round for the moved. */
        private CompletableFuture<List<Part<T>>> settle(List<Outcome<K, T>> outcomes, Function<K, Ownership> owners,
                                                        boolean mayRetry) {
            List<CompletableFuture<List<Part<T>>>> pieces = new ArrayList<>();
            List<K> moved = new ArrayList<>();
            for (Outcome<K, T> outcome : outcomes) {
                if (outcome instanceof Outcome.Answered<K, T> answered) {
                    pieces.add(CompletableFuture.completedFuture(List.of(answered.part())));
                } else if (outcome instanceof Outcome.Failed<K, T> failed) {
                    pieces.add(fallBack(failed.keys(), owners, failed.refusal()));
                } else {
                    moved.addAll(((Outcome.Moved<K, T>) outcome).keys());
                }
            }
            boolean failing = pieces.stream().anyMatch(CompletableFuture::isCompletedExceptionally);
            if (!moved.isEmpty() && !failing) {
                pieces.add(mayRetry ? round(moved, false)
                        : fallBack(moved, owners, ReadFailures.movedWhileReading(read.view())));
            }
            return inOrder(pieces);
        }

        private CompletableFuture<Outcome<K, T>> ask(Instance owner, List<K> keys) {
            return peers.send(owner, read.request(keys), deadline.remaining()).handle((response, failure) -> {
                if (failure != null) {
                    return new Outcome.Failed<>(keys, Responses.toApiException(failure));
                }
                if (response.status() == ReadFailures.NOT_HOSTED_STATUS) {
                    return new Outcome.Moved<>(keys);
                }
                if (response.status() != 200) {
                    return new Outcome.Failed<>(keys, ReadFailures.fromPeer(response, read.view()));
                }
                T value = decodeOrNull(keys, response);
                return value == null ? new Outcome.Failed<>(keys, ReadFailures.malformedPeerAnswer(read.view()))
                        : new Outcome.Answered<>(Part.fromOwner(owner, value));
            });
        }

        private Outcome<K, T> readLocal(List<K> keys) {
            LocalRead<T> local = read.local(keys);
            if (local instanceof LocalRead.Answered<T> answered) {
                return new Outcome.Answered<>(Part.fromOwner(self, answered.value()));
            }
            QueryFailure failure = ((LocalRead.Refused<T>) local).failure();
            if (failure.kind() == QueryFailure.Kind.NOT_HOSTED_HERE) {
                LOG.debug("Local keys {} of the {} moved: {}", keys, read.view(), failure.message());
                return new Outcome.Moved<>(keys);
            }
            return new Outcome.Failed<>(keys, ReadFailures.refusal(failure, read.view()));
        }

        /** Standbys answer for {@code keys}, or the read fails with {@code refusal}. */
        private CompletableFuture<List<Part<T>>> fallBack(List<K> keys, Function<K, Ownership> owners,
                                                          ApiException refusal) {
            Optional<Map<Instance, List<K>>> byStandby = read.standbyMayAnswer()
                    ? FanOutPlan.byStandby(keys, owners, stale, fresh, forwarded) : Optional.empty();
            if (byStandby.isEmpty()) {
                return CompletableFuture.failedFuture(refusal);
            }
            List<CompletableFuture<List<Part<T>>>> pieces = new ArrayList<>();
            byStandby.get().forEach((standby, standbyKeys) -> pieces.add(standby.equals(self)
                    ? fromOwnCopy(standbyKeys, refusal) : fromStandby(standby, standbyKeys, refusal)));
            return inOrder(pieces);
        }

        private CompletableFuture<List<Part<T>>> fromOwnCopy(List<K> keys, ApiException refusal) {
            ReplicaCopy<T> copy = read.anyCopy(keys);
            if (copy.read() instanceof LocalRead.Answered<T> answered && stale.closeEnough(copy.lagRecords())) {
                return CompletableFuture.completedFuture(List.of(new Part<>(self, answered.value(), true,
                        copy.lagRecords())));
            }
            return CompletableFuture.failedFuture(refusal);
        }

        private CompletableFuture<List<Part<T>>> fromStandby(Instance standby, List<K> keys, ApiException refusal) {
            return peers.send(standby, read.request(keys).toReplica(), forwardTimeout).handle((response, failure) -> {
                T value = failure == null && response.status() == 200 && stale.accepts(response)
                        ? decodeOrNull(keys, response) : null;
                if (value == null) {
                    throw refusal;
                }
                return List.of(new Part<>(standby, value, true, StaleReads.lagOf(response)));
            });
        }

        private T decodeOrNull(List<K> keys, ForwardedResponse response) {
            try {
                return read.decode(keys, response.body());
            } catch (RuntimeException e) {
                LOG.warn("An instance answered a read of the {} in an unknown format: {}", read.view(), e.toString());
                return null;
            }
        }
    }

    /** Looks each key up at most once: one round sees one snapshot of the metadata. */
    private static <K> Function<K, Ownership> once(Function<K, Ownership> owners) {
        Map<K, Ownership> seen = new ConcurrentHashMap<>();
        return key -> seen.computeIfAbsent(key, owners);
    }

    private static <X> CompletableFuture<Void> allOf(List<CompletableFuture<X>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
    }

    /** All pieces in order once every one is done, or the failure of the first piece (in order) that failed. */
    private static <T> CompletableFuture<List<Part<T>>> inOrder(List<CompletableFuture<List<Part<T>>>> pieces) {
        return allOf(pieces).handle((ignored, failure) -> concat(pieces.stream().map(CompletableFuture::join)
                .toList()));
    }

    private static <T> List<Part<T>> concat(List<List<Part<T>>> lists) {
        List<Part<T>> out = new ArrayList<>();
        lists.forEach(out::addAll);
        return out;
    }

    private static <T> Gathered<T> gathered(List<Part<T>> parts) {
        List<T> answers = new ArrayList<>(parts.size());
        Set<Instance> servedBy = new LinkedHashSet<>();
        long lag = -1;
        for (Part<T> part : parts) {
            answers.add(part.value());
            servedBy.add(part.servedBy());
            if (part.stale()) {
                lag = Math.max(lag, part.lagRecords());
            }
        }
        return new Gathered<>(List.copyOf(answers), List.copyOf(servedBy), lag);
    }
}
