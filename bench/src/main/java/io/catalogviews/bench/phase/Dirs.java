package io.catalogviews.bench.phase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Sizes and deletes the directories a run leaves (state directories, the work directory). */
public final class Dirs {

    private Dirs() {
    }

    /** Bytes of the regular files under a directory (0 when it does not exist, -1 when it cannot be read). */
    public static long sizeOf(Path dir) {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    public static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a leftover work directory is only disk space
        }
    }
}
