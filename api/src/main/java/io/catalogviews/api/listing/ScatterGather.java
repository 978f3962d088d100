package io.catalogviews.api.listing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.api.routing.ForwardedResponse;
import io.catalogviews.views.listing.ListingResult;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.routing.Instance;
import io.catalogviews.views.routing.KeyOwners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Scatter-gather over every partition of a store (DESIGN.md decision 9).
 *
 * <p>One round: read the active instance of each wanted partition from the current metadata (a partition
 * without one makes the answer a 503), group the partitions by instance, ask every other instance for exactly
 * its partitions in parallel and read this instance's partitions locally. A callee that no longer hosts a
 * partition refuses ({@link #NOT_HOSTED_STATUS}; locally {@link QueryFailure.Kind#NOT_HOSTED_HERE}); the
 * refused partitions get ONE more round with fresh metadata, within the same deadline; refused again, or no
 * time left, the answer is a 503. Every partition answers exactly once, or the whole request fails: never a
 * silently shorter answer. Other failures: a callee that cannot answer now (503, or a local
 * {@link QueryFailure.Kind#RETRY_LATER}) gives 503 with its Retry-After, a callee that does not answer in time
 * gives 504 {@code owner_timeout} (from the {@link io.catalogviews.api.routing.Forwarder}).
 *
 * <p>A request that was itself forwarded is answered from local partitions only: if any partition lives
 * elsewhere it is refused with 503, so forwarding never loops.
 */
final class ScatterGather {

    /** HTTP status of the typed refusal "this instance does not host (some of) these partitions any more". */
    static final int NOT_HOSTED_STATUS = 421;
    static final String NOT_HOSTED_CODE = "not_hosted";
    private static final Logger LOG = LoggerFactory.getLogger(ScatterGather.class);

    /** How one kind of query is read from a set of partitions, locally or on another instance. */
    interface Part<T> {

        /** Reads local partitions; must not throw for store failures. */
        ListingResult<T> local(Set<Integer> partitions);

        /** Asks {@code target} for exactly {@code partitions} through its internal route. */
        CompletableFuture<ForwardedResponse> remote(Instance target, Set<Integer> partitions, Duration timeout);

        /** Reads a 200 answer of the internal route; throws {@link Wire.Malformed} for anything else. */
        T decode(byte[] body);
    }

    /**
     * Every partition's answer.
     *
     * @param answers  one answer per instance and round (together they cover every partition exactly once)
     * @param servedBy the instances whose stores answered, this instance first when it did
     */
    record Gathered<T>(List<T> answers, List<Instance> servedBy) {
    }

    private final KeyOwners owners;
    private final Instance self;
    private final Duration timeout;

    ScatterGather(KeyOwners owners, Duration timeout) {
        this.owners = owners;
        this.self = owners.self();
        this.timeout = timeout;
    }

    /**
     * Gathers the answers of all partitions 0..{@code owners.partitions()}-1 of {@code store}.
     *
     * @param forwarded whether the request being answered was forwarded (then nothing is forwarded again)
     * @return the answers, or a future failed with an {@link ApiException} (503 or 504)
     */
    <T> CompletableFuture<Gathered<T>> gather(String store, boolean forwarded, Part<T> part) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<Integer> all = new TreeSet<>();
        for (int p = 0; p < owners.partitions(); p++) {
            all.add(p);
        }
        Answers<T> answers = new Answers<>();
        try {
            return round(store, all, forwarded, part, deadline, true, answers)
                    .thenApply(ignored -> answers.result());
        } catch (ApiException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private <T> CompletableFuture<Void> round(String store, Set<Integer> wanted, boolean forwarded, Part<T> part,
                                             long deadline, boolean mayRetry, Answers<T> answers) {
        long remainingMs = (deadline - System.nanoTime()) / 1_000_000;
        if (remainingMs <= 0) {
            throw ApiException.unavailable("the listing could not be gathered from every partition in time "
                    + "(partitions are moving); retry shortly", 1);
        }
        Map<Instance, Set<Integer>> plan = plan(store, wanted, forwarded);
        Map<Instance, CompletableFuture<T>> calls = new LinkedHashMap<>();
        plan.forEach((instance, partitions) -> {
            if (!instance.equals(self)) {
                calls.put(instance, part.remote(instance, partitions, Duration.ofMillis(remainingMs))
                        .thenApply(response -> answer(response, part)));
            }
        });
        Set<Integer> refused = new TreeSet<>();
        Set<Integer> local = plan.get(self);
        if (local != null) {
            ListingResult<T> result = part.local(local);
            if (result instanceof ListingResult.Ok<T> ok) {
                answers.add(self, ok.value());
            } else {
                QueryFailure failure = ((ListingResult.Failed<T>) result).failure();
                if (failure.kind() != QueryFailure.Kind.NOT_HOSTED_HERE) {
                    throw ListingErrors.unavailable(failure);
                }
                LOG.debug("Local partitions {} of {} moved: {}", local, store, failure.message());
                refused.addAll(local);
            }
        }
        return CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new)).thenCompose(ignored -> {
            calls.forEach((instance, call) -> {
                T value = call.join();
                if (value == null) {
                    refused.addAll(plan.get(instance));
                } else {
                    answers.add(instance, value);
                }
            });
            if (refused.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            if (!mayRetry) {
                throw ApiException.unavailable("partitions of the catalog moved while the listing was gathered; "
                        + "retry shortly", 1);
            }
            return round(store, refused, forwarded, part, deadline, false, answers);
        });
    }

    /** Instance → its wanted partitions, this instance first, then by host:port. */
    private Map<Instance, Set<Integer>> plan(String store, Set<Integer> wanted, boolean forwarded) {
        Map<Integer, Instance> active = owners.activeOwners(store);
        Map<Instance, Set<Integer>> plan = new TreeMap<>(Comparator
                .comparing((Instance i) -> !i.equals(self)).thenComparing(Instance::hostPort));
        for (int p : wanted) {
            Instance owner = active.get(p);
            if (owner == null) {
                throw ListingErrors.noOwner();
            }
            if (forwarded && !owner.equals(self)) {
                // Metadata moved while the request travelled: refuse, never forward a second time.
                throw ListingErrors.noOwner();
            }
            plan.computeIfAbsent(owner, i -> new TreeSet<>()).add(p);
        }
        Map<Instance, Set<Integer>> out = new LinkedHashMap<>();
        plan.forEach((instance, partitions) -> out.put(instance, Collections.unmodifiableSet(partitions)));
        return out;
    }

    /** The decoded answer, or null for the typed refusal "not hosted here". */
    private static <T> T answer(ForwardedResponse response, Part<T> part) {
        if (response.status() == NOT_HOSTED_STATUS) {
            return null;
        }
        if (response.status() != 200) {
            throw ApiException.unavailable("an instance that holds part of the catalog cannot answer now; retry "
                    + "shortly", ListingErrors.retryAfter(response));
        }
        try {
            T value = part.decode(response.body());
            if (value == null) {
                throw new Wire.Malformed("no answer");
            }
            return value;
        } catch (RuntimeException e) {
            LOG.warn("An instance answered a listing request in an unknown format: {}", e.toString());
            throw ApiException.unavailable("an instance that holds part of the catalog answered in an unknown "
                    + "format (an upgrade in progress?); retry shortly", 1);
        }
    }

    /** Answers collected across rounds; rounds run one after the other, calls of a round are joined first. */
    private static final class Answers<T> {
        private final List<T> values = new ArrayList<>();
        private final Set<Instance> servedBy = new LinkedHashSet<>();

        synchronized void add(Instance instance, T value) {
            values.add(value);
            servedBy.add(instance);
        }

        synchronized Gathered<T> result() {
            return new Gathered<>(List.copyOf(values), List.copyOf(servedBy));
        }
    }
}
