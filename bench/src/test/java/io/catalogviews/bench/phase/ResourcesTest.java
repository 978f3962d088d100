package io.catalogviews.bench.phase;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResourcesTest {

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final Resources resources = new Resources(new PrintStream(console, true, StandardCharsets.UTF_8));
    private final List<String> closed = new ArrayList<>();

    private AutoCloseable named(String name) {
        return () -> closed.add(name);
    }

    @Test
    void shouldCloseInTheReverseOrderOfTheirStartWhenTheRunEnds() {
        resources.add(named("broker"));
        resources.add(named("service"));
        resources.add(named("postgres-http"));

        resources.close();

        assertThat(closed).containsExactly("postgres-http", "service", "broker");
    }

    @Test
    void shouldCloseTheOthersAndSayWhyWhenOneFailsToClose() {
        resources.add(named("broker"));
        resources.add(() -> {
            throw new IOException("service did not stop");
        });
        resources.add(named("ceiling"));

        resources.close();

        assertThat(closed).containsExactly("ceiling", "broker");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("while stopping", "service did not stop");
    }

    @Test
    void shouldCloseOnlyOnceWhenClosedBeforeTheRunEnds() throws Exception {
        resources.add(named("broker"));
        AutoCloseable service = resources.add(named("service"));
        resources.closeNow(service);
        resources.add(named("restarted service"));

        resources.close();

        assertThat(closed).containsExactly("service", "restarted service", "broker");
    }
}
