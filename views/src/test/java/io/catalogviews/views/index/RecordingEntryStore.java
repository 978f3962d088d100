package io.catalogviews.views.index;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;

/** Entry stores for tests: one over a map, and one that notes every write before passing it on. */
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

    /** An entry store over {@code map}: a delete removes the key. */
    public static EntryStore over(Map<Bytes, byte[]> map) {
        return new EntryStore() {
            @Override
            public byte[] get(Bytes key) {
                return map.get(key);
            }

            @Override
            public void put(Bytes key, byte[] value) {
                map.put(key, value);
            }

            @Override
            public void delete(Bytes key) {
                map.remove(key);
            }
        };
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
