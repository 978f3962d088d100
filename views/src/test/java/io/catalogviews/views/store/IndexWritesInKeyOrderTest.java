package io.catalogviews.views.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.SortedMapStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/**
 * A transaction's index entries, held and written at its commit in key order: the store must end as if every write
 * had gone in as it came (the last write of a key wins, a delete after a put deletes), and the keys handed to the
 * commit feed must be each written key once, ascending unsigned (kept pages search them by binary search).
 */
class IndexWritesInKeyOrderTest {

    private static final long SEED = 20261205L;

    @Test
    void shouldLeaveTheStoreAsWritesInArrivalOrderWouldWhenKeysAreWrittenSeveralTimes() {
        Random random = new Random(SEED);
        for (int round = 0; round < 500; round++) {
            Map<Bytes, byte[]> inArrivalOrder = new HashMap<>();
            SortedMapStore<Bytes> inKeyOrder = new SortedMapStore<>("index");
            // Keys the store holds before the transaction, written in both stores.
            for (int i = 0; i < 5; i++) {
                Bytes key = randomKey(random);
                byte[] value = {1};
                inArrivalOrder.put(key, value);
                inKeyOrder.put(key, value);
            }
            List<Bytes> loggedOrder = new ArrayList<>();
            IndexWritesInKeyOrder held = new IndexWritesInKeyOrder();
            // Some rounds hold enough writes to be sorted by merging, not only by insertion.
            int writes = random.nextInt(round % 10 == 0 ? 3000 : 60);
            for (int i = 0; i < writes; i++) {
                Bytes key = randomKey(random);
                byte[] value = random.nextInt(3) == 0 ? null : new byte[] {(byte) random.nextInt(256)};
                held.add(key, value);
                if (value == null) {
                    inArrivalOrder.remove(key);
                } else {
                    inArrivalOrder.put(key, value);
                }
                loggedOrder.add(key);
            }

            List<Bytes> keys = held.drainTo(EntryStore.of(inKeyOrder));

            assertThat(inKeyOrder.contents()).as("round %d: the store after the commit", round)
                    .containsExactlyInAnyOrderEntriesOf(inArrivalOrder);
            assertThat(keys).as("round %d: the keys told to the feed", round)
                    .containsExactlyElementsOf(loggedOrder.stream().distinct()
                            .sorted((a, b) -> Arrays.compareUnsigned(a.get(), b.get())).toList());
            assertThat(held.isEmpty()).isTrue();
            assertThat(held.bytes()).isZero();
        }
    }

    @Test
    void shouldWriteNothingWhenTheHeldWritesAreForgotten() {
        IndexWritesInKeyOrder held = new IndexWritesInKeyOrder();
        held.add(Bytes.wrap(new byte[] {2, 7}), new byte[] {1, 2, 3});
        assertThat(held.bytes()).isEqualTo(5);

        held.forget();
        SortedMapStore<Bytes> store = new SortedMapStore<>("index");

        assertThat(held.drainTo(EntryStore.of(store))).isEmpty();
        assertThat(store.contents()).isEmpty();
    }

    /**
     * Long keys start with one of these (as index keys start with their scope and kind): some as long as the numbers
     * compared before the bytes (32 bytes), some shorter, each pair differing only in its last byte.
     */
    private static final byte[][] PREFIXES = {
            {5, 1, 'p', 'h', 'o', 'n', 'e', 's'},
            {5, 1, 'p', 'h', 'o', 'n', 'e', (byte) 0x80},
            {2, 0, 0, 0, 0, 0, 0, 0},
            longPrefix((byte) 's', 32),
            longPrefix((byte) 0x80, 32),
            longPrefix((byte) 0, 16),
            longPrefix((byte) 0x81, 16)};

    private static byte[] longPrefix(byte last, int length) {
        byte[] prefix = new byte[length];
        for (int i = 0; i < length - 1; i++) {
            prefix[i] = (byte) ('a' + i % 26);
        }
        prefix[length - 1] = last;
        return prefix;
    }

    /**
     * Few distinct keys, bytes above 0x7F included: repeats are common and unsigned order matters. Half are 1 or 2
     * bytes; half are a shared prefix (maybe cut short by up to two bytes) and up to 3 more bytes, so that keys often
     * agree in all the bytes compared as numbers and differ after them or only in length, one a prefix of the other.
     */
    private static Bytes randomKey(Random random) {
        if (random.nextBoolean()) {
            byte[] key = new byte[1 + random.nextInt(2)];
            for (int i = 0; i < key.length; i++) {
                key[i] = (byte) (random.nextBoolean() ? random.nextInt(3) : 0x80 + random.nextInt(3));
            }
            return Bytes.wrap(key);
        }
        byte[] prefix = PREFIXES[random.nextInt(PREFIXES.length)];
        int kept = random.nextInt(4) == 0 ? prefix.length - 2 + random.nextInt(2) : prefix.length;
        byte[] key = Arrays.copyOf(prefix, kept + (kept == prefix.length ? random.nextInt(4) : 0));
        for (int i = kept; i < key.length; i++) {
            key[i] = (byte) (random.nextBoolean() ? random.nextInt(2) : 0x80 + random.nextInt(2));
        }
        return Bytes.wrap(key);
    }
}
