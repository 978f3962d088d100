package io.catalogviews.bench.observe;

/**
 * Groups a JVM's native thread names ({@code comm} of {@code /proc/<pid>/task/<tid>}: the Java thread name cut to
 * 15 bytes) by what they do, from their prefixes: Jetty's request threads, Kafka Streams' stream and state-updater
 * threads (named {@code <application id>-<uuid>-StreamThread-n}, so only the application id's first bytes are left),
 * Kafka's client threads, RocksDB's background threads, the garbage collector, the JIT compilers, the VM thread. A
 * name no rule knows is its own group, with digits as {@code #} ({@code pool-#-thread-#}).
 */
public final class ThreadNames {

    /** The longest thread name Linux keeps (16 bytes with the terminating zero). */
    static final int COMM_LENGTH = 15;

    /** The JVM's own service threads (besides the VM thread, GC and JIT), as their names begin. */
    private static final java.util.List<String> JVM_THREADS = java.util.List.of("Notification Th", "Common-Cleaner",
            "Reference Handl", "Finalizer", "Signal Dispatch", "Attach Listener", "Service Thread", "Sweeper thread",
            "DestroyJavaVM", "Monitor Deflati");

    private final String streamsPrefix;

    /** @param applicationId the service's application id: its stream threads' names start with it */
    public ThreadNames(String applicationId) {
        String p = applicationId + "-";
        this.streamsPrefix = p.length() > COMM_LENGTH ? p.substring(0, COMM_LENGTH) : p;
    }

    public String group(String comm) {
        if (comm.startsWith("qtp") || comm.startsWith("JettyServerThre") || comm.toLowerCase().contains("jetty")) {
            return "jetty";
        }
        if (comm.startsWith(streamsPrefix) || comm.contains("StreamThread") || comm.contains("StateUpdater")) {
            return "kafka-streams";
        }
        if (comm.startsWith("kafka-producer")) {
            return "kafka-producer";
        }
        if (comm.startsWith("kafka-streams-m")) {
            return "metrics";
        }
        if (comm.startsWith("kafka-")) {
            return "kafka-clients";
        }
        if (comm.startsWith("rocksdb")) {
            return "rocksdb";
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("GC ")) {
            return "gc";
        }
        if (comm.startsWith("C2 CompilerThre")) {
            return "jit-c2";
        }
        if (comm.startsWith("C1 CompilerThre")) {
            return "jit-c1";
        }
        if (comm.startsWith("VM ") || JVM_THREADS.stream().anyMatch(comm::startsWith)) {
            return "jvm";
        }
        return comm.replaceAll("[0-9]+", "#");
    }
}
