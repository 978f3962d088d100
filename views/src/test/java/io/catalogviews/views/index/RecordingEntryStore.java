package io.catalogviews.views.index;

import java.util.List;
import org.apache.kafka.common.utils.Bytes;

/** An entry store for tests that notes every write before passing it on. */
public final class RecordingEntryStore {

    /** A write as a test sees it: a put or a delete of a key. */
    public record Write(boolean delete, Bytes key) {
        @Override
        public String toString() {
            return (delete ? "delete " : "put ") + key;
        }
    }

    private RecordingEntryStore() {
    }

    /** {@code base}, noting each write in {@code writes}, in the order it came. */
    public static EntryStore recording(EntryStore base, List<Write> writes) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                return base.get(key);
            }

            @Override
            public void put(Bytes key, byte[] value) {
                writes.add(new Write(false, key));
                base.put(key, value);
            }

            @Override
            public void delete(Bytes key) {
                writes.add(new Write(true, key));
                base.delete(key);
            }
        };
    }
}
