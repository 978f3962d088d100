package io.catalogviews.views.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.index.EntryStore;
import io.catalogviews.views.index.RecordingEntryStore;
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
 * A transaction's facet counters, held at their latest value: reads see the transaction's own changes, and the
 * commit leaves the store as the changes written one by one would have, each changed counter written once, in key
 * order. (That the counters a store commits equal the ones a rebuild derives is checked by the view store contract.)
 */
class FacetCountersInTransactionTest {

    private static final long SEED = 20261206L;

    @Test
    void shouldLeaveTheStoreAsWritesOneByOneWouldWhenCountersChangeSeveralTimes() {
        Random random = new Random(SEED);
        for (int round = 0; round < 300; round++) {
            Map<Bytes, byte[]> oneByOne = new HashMap<>();
            SortedMapStore<Bytes> held = new SortedMapStore<>("counters");
            for (int i = 0; i < 4; i++) {
                Bytes key = randomKey(random);
                oneByOne.put(key, new byte[] {1});
                held.put(key, new byte[] {1});
            }
            FacetCountersInTransaction counters = new FacetCountersInTransaction();
            int writes = random.nextInt(200);
            for (int i = 0; i < writes; i++) {
                Bytes key = randomKey(random);
                byte[] read = counters.read(key, EntryStore.of(held));
                assertThat(read).as("round %d: counter %s as the transaction left it", round, key)
                        .isEqualTo(oneByOne.get(key));
                byte[] value = random.nextInt(4) == 0 ? null : new byte[] {(byte) random.nextInt(256), (byte) i};
                counters.put(key, value);
                if (value == null) {
                    oneByOne.remove(key);
                } else {
                    oneByOne.put(key, value);
                }
            }

            List<RecordingEntryStore.Write> drained = new ArrayList<>();
            counters.drainTo(RecordingEntryStore.recording(EntryStore.of(held), drained));
            List<Bytes> written = drained.stream().map(RecordingEntryStore.Write::key).toList();

            assertThat(held.contents()).as("round %d: the store after the commit", round)
                    .containsExactlyInAnyOrderEntriesOf(oneByOne);
            assertThat(written).as("round %d: each counter written once, in key order", round)
                    .doesNotHaveDuplicates()
                    .isSortedAccordingTo((a, b) -> Arrays.compareUnsigned(a.get(), b.get()));
            assertThat(counters.isEmpty()).isTrue();
            assertThat(counters.bytes()).isZero();
        }
    }

    @Test
    void shouldWriteNothingWhenTheHeldCountersAreForgotten() {
        FacetCountersInTransaction counters = new FacetCountersInTransaction();
        Bytes key = Bytes.wrap(new byte[] {6, 'a', 0});
        counters.put(key, new byte[16]);
        counters.put(key, new byte[16]);
        assertThat(counters.bytes()).as("one counter: its key and its latest value").isEqualTo(3 + 16);

        counters.forget();
        SortedMapStore<Bytes> store = new SortedMapStore<>("counters");
        counters.drainTo(EntryStore.of(store));

        assertThat(store.contents()).isEmpty();
        byte[] committed = {9};
        store.put(key, committed);
        assertThat(counters.read(key, EntryStore.of(store)))
                .as("the counter read after the transaction is forgotten: the committed one").isSameAs(committed);
    }

    /** Few distinct keys, bytes above 0x7F included, so that counters are changed several times and order matters. */
    private static Bytes randomKey(Random random) {
        byte[] key = new byte[1 + random.nextInt(3)];
        key[0] = random.nextBoolean() ? (byte) 3 : (byte) 6;
        for (int i = 1; i < key.length; i++) {
            key[i] = (byte) (random.nextBoolean() ? random.nextInt(3) : 0x80 + random.nextInt(3));
        }
        return Bytes.wrap(key);
    }
}
