import org.apache.kafka.common.record.internal.*;
import java.io.File;
import java.util.*;
/** Counts the records, distinct keys and control batches of Kafka log directories (run with the bench jar on the class path). */
public class CountChangelog {
  public static void main(String[] a) throws Exception {
    for (String dir : a) {
      long recs = 0, ctrl = 0, batches = 0, bytes = 0; Set<String> keys = new HashSet<>();
      File[] fs = new File(dir).listFiles((d, n) -> n.endsWith(".log"));
      for (File f : fs) {
        try (FileRecords fr = FileRecords.open(f)) {
          for (FileLogInputStream.FileChannelRecordBatch b : fr.batches()) {
            batches++; bytes += b.sizeInBytes();
            if (b.isControlBatch()) { ctrl++; continue; }
            for (org.apache.kafka.common.record.internal.Record r : b) { recs++; byte[] k = new byte[r.keySize()]; r.key().get(k); keys.add(Base64.getEncoder().encodeToString(k)); }
          }
        }
      }
      System.out.println(new File(dir).getName() + " records=" + recs + " distinctKeys=" + keys.size() + " controlBatches=" + ctrl + " batches=" + batches + " bytes=" + bytes);
    }
  }
}
