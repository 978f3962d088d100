package io.catalogviews.views.query;

import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;

/**
 * The partition of a product id, by the rule of Kafka's Java client (murmur2 of the UTF-8 key bytes,
 * modulo the partition count). Producers must use it, and the topology dead-letters records that did not.
 */
public final class KeyPartitioner {

    private KeyPartitioner() {
    }

    public static int partitionOf(String id, int partitions) {
        return partitionOf(id.getBytes(StandardCharsets.UTF_8), partitions);
    }

    public static int partitionOf(byte[] keyBytes, int partitions) {
        return Utils.toPositive(Utils.murmur2(keyBytes)) % partitions;
    }
}
