package io.catalogviews.bench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

class BenchCommandTest {

    private static BenchSettings settings(String... args) {
        BenchCommand command = new BenchCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void shouldRestoreByDefaultWhenNoOptionIsGiven() {
        assertThat(settings().restore()).isTrue();
        assertThat(settings("--quick").restore()).isTrue();
    }

    @Test
    void shouldSkipRestoreWhenNoRestoreIsGiven() {
        assertThat(settings("--no-restore").restore()).isFalse();
        assertThat(settings("--quick", "--no-restore").restore()).isFalse();
    }

    @Test
    void shouldRestoreWhenRestoreIsGiven() {
        assertThat(settings("--restore").restore()).isTrue();
    }

    @Test
    void shouldKeepPostgresNegatableBesideRestore() {
        assertThat(settings("--no-postgres", "--restore").postgres()).isFalse();
        assertThat(settings("--no-postgres", "--restore").restore()).isTrue();
    }
}
