package io.catalogviews.bench.observe;

import io.catalogviews.bench.results.ServiceObservation;

/**
 * Watches a target from outside during the measured window of a load run: {@link #begin()} when the window opens,
 * {@link Window#end(double)} when it closes.
 */
public interface RunObserver {

    /** Watches nothing (the peers). */
    RunObserver NONE = () -> seconds -> null;

    Window begin();

    /** One window being watched. */
    interface Window {
        /** What happened in the window, {@code seconds} long; null when nothing is watched. */
        ServiceObservation end(double seconds);
    }
}
