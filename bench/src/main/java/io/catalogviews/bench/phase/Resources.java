package io.catalogviews.bench.phase;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The processes and clients a run started, closed in the reverse order of their start when the run ends, however it
 * ends: the service before the broker it needs, the PostgreSQL front before PostgreSQL. A failure to close one is
 * printed and does not keep the others running.
 */
public final class Resources implements AutoCloseable {

    private final Deque<AutoCloseable> open = new ArrayDeque<>();
    private final PrintStream out;

    public Resources(PrintStream out) {
        this.out = out;
    }

    /** Registers {@code resource} to be closed at the end; returns it. */
    public <T extends AutoCloseable> T add(T resource) {
        open.push(resource);
        return resource;
    }

    /** Closes {@code resource} now (the restore phase stops the service): it is not closed again at the end. */
    public void closeNow(AutoCloseable resource) throws Exception {
        open.remove(resource);
        resource.close();
    }

    @Override
    public void close() {
        while (!open.isEmpty()) {
            try {
                open.pop().close();
            } catch (Exception e) {
                out.println("while stopping: " + e);
            }
        }
    }
}
