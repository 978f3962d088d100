package io.catalogviews.api.listing;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;

/**
 * The response bodies last rendered from answers, remembered by the answer's identity. The views keep pages and
 * facets in memory between the commits that change them and hand out the same immutable object to every reader
 * until then; rendering it (items spliced, cursor signed, brands sorted) is then the same work every time, so it is
 * done once per kept answer. An answer read from a store is a new object: it misses, and its body takes a slot until
 * another answer hashes there.
 *
 * <p>Lock-free: each slot holds one immutable entry, replaced whole; a reader sees an entry or its successor, and
 * compares the answer by identity and the render's parameters by equality, so a hit is never another answer's body.
 * Memory: at most {@code slots} bodies and the answers they were rendered from.
 *
 * @param <A> an answer that is never changed once handed out (a record of immutable parts)
 * @param <P> what else the body depends on, with value equality (the query: its cursor and filter)
 */
final class RenderedBodies<A, P> {

    private record Rendered(Object answer, Object params, byte[] body) {
    }

    private final AtomicReferenceArray<Rendered> slots;
    private final int mask;

    /** @param slots a power of two */
    RenderedBodies(int slots) {
        if (slots <= 0 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two, was " + slots);
        }
        this.slots = new AtomicReferenceArray<>(slots);
        this.mask = slots - 1;
    }

    /**
     * The body of {@code answer} under {@code params}: the one rendered before for this very answer object and equal
     * parameters, or {@code render}'s, remembered. A render that throws remembers nothing.
     */
    byte[] body(A answer, P params, BiFunction<A, P, byte[]> render) {
        int h = System.identityHashCode(answer);
        int slot = (h ^ (h >>> 16)) & mask;
        Rendered seen = slots.get(slot);
        if (seen != null && seen.answer == answer && seen.params.equals(params)) {
            return seen.body;
        }
        byte[] body = render.apply(answer, params);
        slots.set(slot, new Rendered(answer, params, body));
        return body;
    }
}
