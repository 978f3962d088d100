package io.catalogviews.bench.observe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadNamesTest {

    private final ThreadNames names = new ThreadNames("catalog-views-bench");

    @Test
    void shouldGroupTheServicesThreadsWhenTheirNamesAreCutTo15Bytes() {
        assertThat(names.group("qtp1523553211-4")).isEqualTo("jetty");
        assertThat(names.group("catalog-views-b")).as("<application id>-<uuid>-StreamThread-1, cut")
                .isEqualTo("kafka-streams");
        assertThat(names.group("kafka-producer-")).isEqualTo("kafka-producer");
        assertThat(names.group("kafka-coordinat")).isEqualTo("kafka-clients");
        assertThat(names.group("kafka-streams-m")).isEqualTo("metrics");
        assertThat(names.group("rocksdb:low")).isEqualTo("rocksdb");
        assertThat(names.group("G1 Conc#0")).isEqualTo("gc");
        assertThat(names.group("GC Thread#1")).isEqualTo("gc");
        assertThat(names.group("C2 CompilerThre")).isEqualTo("jit-c2");
        assertThat(names.group("C1 CompilerThre")).isEqualTo("jit-c1");
        assertThat(names.group("VM Thread")).isEqualTo("jvm");
        assertThat(names.group("Notification Th")).isEqualTo("jvm");
    }

    @Test
    void shouldKeepAnUnknownNameWithItsNumbersFoldedWhenNoRuleKnowsIt() {
        assertThat(names.group("pool-3-thread-12")).isEqualTo("pool-#-thread-#");
        assertThat(names.group("forwarder")).isEqualTo("forwarder");
    }

    @Test
    void shouldUseTheWholeApplicationIdWhenItIsShort() {
        ThreadNames shortId = new ThreadNames("app");

        assertThat(shortId.group("app-1b2c3d4e-5f")).isEqualTo("kafka-streams");
        assertThat(shortId.group("application")).isEqualTo("application");
    }
}
