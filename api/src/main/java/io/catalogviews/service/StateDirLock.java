package io.catalogviews.service;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Holds an exclusive lock on the state directory for the life of the instance, so that a second instance
 * pointed at the same directory fails at once with a clear message instead of corrupting stores.
 */
final class StateDirLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private StateDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static StateDirLock acquire(Path stateDir) {
        Path lockFile = stateDir.resolve("instance.lock");
        try {
            Files.createDirectories(stateDir);
            FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("state dir " + stateDir.toAbsolutePath() + " is in use by another "
                        + "catalog-views instance; give each instance its own --state-dir");
            }
            return new StateDirLock(channel, lock);
        } catch (IOException e) {
            throw new IllegalStateException("cannot lock state dir " + stateDir.toAbsolutePath() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // The lock dies with the channel or the process anyway.
        }
    }
}
