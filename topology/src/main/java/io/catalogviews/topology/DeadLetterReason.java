package io.catalogviews.topology;

/** Why a record went to the dead-letter topic; {@link #wireName()} is the contract's {@code dlq.reason}. */
public enum DeadLetterReason {
    UNDECODABLE("undecodable"),
    KEY_MISMATCH("key_mismatch"),
    WRONG_PARTITION("wrong_partition"),
    INVALID("invalid"),
    UNKNOWN_PRODUCT("unknown_product"),
    TOO_LARGE("too_large"),
    /** Processing threw: a defect, not a rule of the contract (CONTRACT.md section 4). */
    PROCESSING_ERROR("processing_error");

    private final String wireName;

    DeadLetterReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
