package io.catalogviews.views.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Private fields of Kafka Streams' RocksDB store, which has no public API for what this package needs (its write
 * batch, its RocksDB instance). One place for the class name and the lookup, so that an upgrade that moves them is
 * met in one file; callers fall back to the public API when a lookup fails.
 */
final class RocksDbStoreFields {

    static final String STORE_CLASS = "org.apache.kafka.streams.state.internals.RocksDBStore";

    private RocksDbStoreFields() {
    }

    /** A handle on the private field {@code name} of type {@code type} declared by {@code owner}. */
    static VarHandle field(Class<?> owner, String name, Class<?> type) throws ReflectiveOperationException {
        return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, name, type);
    }
}
