package io.catalogviews.broker;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a broker's data directory, taken before anything touches it. Kafka locks its log
 * directories only once the broker part starts, after the controller has already opened the metadata log;
 * a second broker on the same directory must be stopped before that.
 */
final class DataDirLock implements AutoCloseable {

    static final String LOCK_FILE_NAME = ".embedded-kafka.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirLock acquire(Path dataDir, String where) {
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDir);
            channel = FileChannel.open(dataDir.resolve(LOCK_FILE_NAME),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(where, null);
            }
            return new DataDirLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(where, e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new EmbeddedKafkaBroker.StartException("Kafka broker cannot start for " + where
                    + ": cannot lock the data directory: " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the channel closes below anyway
        }
        closeQuietly(channel);
    }

    private static EmbeddedKafkaBroker.StartException inUse(String where, Throwable cause) {
        return new EmbeddedKafkaBroker.StartException("Kafka broker cannot start for " + where
                + ": the data directory is in use by another Kafka broker (in this or another process)", cause);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}
