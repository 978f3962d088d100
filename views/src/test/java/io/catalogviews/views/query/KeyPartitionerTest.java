package io.catalogviews.views.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.utils.Utils;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyPartitionerTest {

    private static final int[] PARTITION_COUNTS = {1, 2, 3, 6, 7, 12, 24, 100, 1000, 65_536, Integer.MAX_VALUE};

    @Test
    void shouldAgreeWithTheJavaProducerRuleWhenKeysAreRandomBytes() {
        SplittableRandom random = new SplittableRandom(7L);
        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < 20_000; i++) {
            byte[] key = new byte[random.nextInt(0, 80)];
            random.nextBytes(key);
            int partitions = random.nextInt(1, 2000);
            int expected = Utils.toPositive(Utils.murmur2(key)) % partitions;
            softly.assertThat(KeyPartitioner.partitionOf(key, partitions)).as("key #%d of %d partitions", i, partitions)
                    .isEqualTo(expected)
                    .isEqualTo(BuiltInPartitioner.partitionForKey(key, partitions));
        }
        softly.assertAll();
    }

    @Test
    void shouldAgreeWithTheJavaProducerWhenKeysAreProductIdsAndPartitionCountsVary() {
        SoftAssertions softly = new SoftAssertions();
        for (int id = 0; id < 2000; id++) {
            String productId = "p-" + id;
            byte[] key = productId.getBytes(StandardCharsets.UTF_8);
            for (int partitions : PARTITION_COUNTS) {
                softly.assertThat(KeyPartitioner.partitionOf(productId, partitions))
                        .as("%s of %d partitions", productId, partitions)
                        .isEqualTo(BuiltInPartitioner.partitionForKey(key, partitions))
                        .isBetween(0, partitions - 1);
            }
        }
        softly.assertAll();
    }

    @Test
    void shouldHashTheUtf8BytesWhenTheIdIsNotAscii() {
        String id = "prodüct-日本-😀";

        for (int partitions : PARTITION_COUNTS) {
            assertThat(KeyPartitioner.partitionOf(id, partitions))
                    .isEqualTo(KeyPartitioner.partitionOf(id.getBytes(StandardCharsets.UTF_8), partitions))
                    .isEqualTo(BuiltInPartitioner.partitionForKey(id.getBytes(StandardCharsets.UTF_8), partitions));
        }
    }

    /** murmur2 reference values from Apache Kafka's own UtilsTest, so a re-implementation cannot drift. */
    @ParameterizedTest(name = "murmur2(\"{0}\") = {1}")
    @CsvSource({
        "21, -973932308",
        "foobar, -790332482",
        "a-little-bit-long-string, -985981536",
        "a-little-bit-longer-string, -1486304829",
        "lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8, -58897971",
        "abc, 479470107",
    })
    void shouldPlaceKeysAsKafkaReferenceHashesSayWhenHashingKnownKeys(String key, int murmur2) {
        for (int partitions : PARTITION_COUNTS) {
            assertThat(KeyPartitioner.partitionOf(key, partitions))
                    .isEqualTo((murmur2 & 0x7fffffff) % partitions);
        }
    }

    @Test
    void shouldPlaceEveryKeyOnPartitionZeroWhenThereIsOnePartition() {
        assertThat(KeyPartitioner.partitionOf("anything", 1)).isZero();
        assertThat(KeyPartitioner.partitionOf(new byte[0], 1)).isZero();
    }
}
