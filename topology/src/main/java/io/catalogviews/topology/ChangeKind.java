package io.catalogviews.topology;

/** The kind of an applied change, for counters. */
public enum ChangeKind {
    UPSERT, PRICE, STOCK, DELETE, TOMBSTONE
}
