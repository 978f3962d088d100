package io.catalogviews.broker;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.common.utils.internals.Exit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an in-process broker from halting the JVM. On a fatal fault (for example the controller port
 * being taken between the free-port check and the bind) Kafka's {@code ProcessTerminatingFaultHandler}
 * calls {@code Exit.halt(1)}, which would kill the service or the test JVM. While at least one embedded
 * broker runs, Kafka's (JVM-wide) exit and halt procedures log and throw instead, and every running
 * embedded broker records the fault.
 */
final class FatalFaultGuard {

    private static final Logger LOG = LoggerFactory.getLogger(FatalFaultGuard.class);

    private static final Set<AtomicReference<String>> SINKS = new LinkedHashSet<>();
    private static boolean disabled;

    private FatalFaultGuard() {
    }

    /** Thrown in place of Kafka's halt or exit of the JVM. */
    static final class FatalFaultException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FatalFaultException(String message) {
            super(message);
        }
    }

    /** Starts guarding for one broker; a fatal fault is written to {@code sink} (the first one wins). */
    static synchronized void acquire(AtomicReference<String> sink) {
        if (disabled) {
            return;
        }
        if (SINKS.isEmpty()) {
            Exit.setHaltProcedure((code, message) -> fault("halt", code, message));
            Exit.setExitProcedure((code, message) -> fault("exit", code, message));
        }
        SINKS.add(sink);
    }

    static synchronized void release(AtomicReference<String> sink) {
        if (SINKS.remove(sink) && SINKS.isEmpty()) {
            Exit.resetHaltProcedure();
            Exit.resetExitProcedure();
        }
    }

    /** For a stand-alone broker process: keep Kafka's own behaviour (halt on a fatal fault). */
    static synchronized void disable() {
        disabled = true;
    }

    private static void fault(String what, int code, String message) {
        String text = "Kafka broker asked to " + what + " the JVM with status " + code
                + (message == null ? "" : ": " + message)
                + " (the cause is in the ERROR log of org.apache.kafka.server.fault.ProcessTerminatingFaultHandler);"
                + " the JVM keeps running but the embedded broker must be considered failed";
        synchronized (FatalFaultGuard.class) {
            SINKS.forEach(sink -> sink.compareAndSet(null, text));
        }
        LOG.error(text);
        throw new FatalFaultException(text);
    }
}
