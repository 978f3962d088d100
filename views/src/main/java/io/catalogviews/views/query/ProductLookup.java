package io.catalogviews.views.query;

/**
 * The answer of a local product read. Either the view answered ({@link Found}, {@link Deleted},
 * {@link Absent}) or it could not ({@link Failed}, saying whether to retry or ask another instance).
 */
public sealed interface ProductLookup {

    /** A live product: its version and its serving-ready JSON bytes. */
    record Found(long version, byte[] json) implements ProductLookup {
    }

    /** The product was deleted at {@code version}; the marker is kept to reject late, older events. */
    record Deleted(long version) implements ProductLookup {
    }

    /** The view has never held this product (or its deletion marker expired). */
    record Absent() implements ProductLookup {
    }

    /** The view could not answer; see {@link QueryFailure#kind()} for what the caller should do. */
    record Failed(QueryFailure failure) implements ProductLookup {
    }

    ProductLookup ABSENT = new Absent();

    /** The version the view holds, or {@code null} when it holds none or could not answer. */
    default Long currentVersion() {
        if (this instanceof Found f) {
            return f.version();
        }
        if (this instanceof Deleted d) {
            return d.version();
        }
        return null;
    }
}
