package io.catalogviews.cli;

import io.catalogviews.service.ServiceConfig;
import io.catalogviews.service.config.OperationsConfig;
import io.catalogviews.service.config.SecretsConfig;
import io.catalogviews.service.config.RequestLimits;
import io.catalogviews.views.store.IdleCompactions;
import io.catalogviews.views.streams.BoundedMemoryRocksDbConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where {@code serve}'s options come from (flag &gt; environment &gt; {@code --config} file &gt; default), how invalid
 * configuration fails (naming the option and where its value came from), and {@code serve --help}.
 */
class ServeConfigurationTest {

    @TempDir
    Path dir;

    private Path configFile(String content) throws IOException {
        Path file = dir.resolve("catalog-views.properties");
        Files.writeString(file, content);
        return file;
    }

    private static ServeOptions parse(Map<String, String> env, String... serveArgs) {
        List<String> args = new ArrayList<>(List.of("serve"));
        args.addAll(List.of(serveArgs));
        CommandLine.ParseResult result = CatalogViewsCli.commandLine(env).parseArgs(args.toArray(String[]::new));
        ServeCommand serve = result.subcommand().commandSpec().commandLine().getCommand();
        return serve.options;
    }

    /** Runs the CLI (only with configurations that fail before anything starts); exit code and stderr. */
    private static Run run(Map<String, String> env, String... args) {
        CommandLine cli = CatalogViewsCli.commandLine(env);
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        int exit = cli.execute(args);
        return new Run(exit, err.toString());
    }

    private record Run(int exit, String err) {
    }

    @Test
    void shouldUseTheBuiltInDefaultWhenNoSourceSetsTheOption() {
        ServiceConfig config = parse(Map.of()).toConfig();

        assertThat(config.httpPort()).isEqualTo(8080);
        assertThat(config.partitions()).isEqualTo(12);
        assertThat(config.applicationId()).isEqualTo("catalog-views");
    }

    @Test
    void shouldHandTheIdleCompactionTimeToTheViewStoresWhenSetByFlagEnvironmentOrDefault() {
        assertThat(parse(Map.of()).toConfig().streamsOverrides())
                .containsEntry(IdleCompactions.IDLE_AFTER_MS_CONFIG, "10000");
        assertThat(parse(Map.of("CATALOG_VIEWS_COMPACT_WHEN_IDLE", "2m")).toConfig().streamsOverrides())
                .containsEntry(IdleCompactions.IDLE_AFTER_MS_CONFIG, "120000");
        assertThat(parse(Map.of(), "--compact-when-idle", "0").toConfig().streamsOverrides())
                .as("0 turns it off").containsEntry(IdleCompactions.IDLE_AFTER_MS_CONFIG, "0");
        assertThat(parse(Map.of(), "--compact-when-idle", "30s", "--streams-config",
                IdleCompactions.IDLE_AFTER_MS_CONFIG + "=5000").toConfig().streamsOverrides())
                .as("an explicit Streams property wins").containsEntry(IdleCompactions.IDLE_AFTER_MS_CONFIG, "5000");
    }

    @Test
    void shouldRefuseAnIdleCompactionTimeThatIsNeitherZeroNorPositiveWhenServing() {
        for (String bad : List.of("-5s", "soon", "0s", "")) {
            Run run = run(Map.of(), "serve", "--compact-when-idle", bad);

            assertThat(run.exit()).as("exit code for '%s'", bad).isEqualTo(2);
            assertThat(run.err()).as("error for '%s'", bad).contains("--compact-when-idle").contains("'" + bad + "'");
        }
    }

    @Test
    void shouldHandTheProductViewCacheShareToTheStoresWhenSetByFlagEnvironmentOrDefault() {
        String key = BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG;
        assertThat(parse(Map.of()).toConfig().streamsOverrides())
                .containsEntry(key, Double.toString(BoundedMemoryRocksDbConfig.DEFAULT_PRODUCT_VIEW_CACHE_SHARE));
        assertThat(parse(Map.of("CATALOG_VIEWS_PRODUCT_VIEW_CACHE_SHARE", "0")).toConfig().streamsOverrides())
                .as("0: one cache for every store").containsEntry(key, "0.0");
        assertThat(parse(Map.of(), "--product-view-cache-share", "0.5").toConfig().streamsOverrides())
                .containsEntry(key, "0.5");
        assertThat(parse(Map.of(), "--product-view-cache-share", "0.5", "--streams-config", key + "=0.3")
                .toConfig().streamsOverrides()).as("an explicit Streams property wins").containsEntry(key, "0.3");
    }

    @Test
    void shouldRefuseAProductViewCacheShareOutsideZeroToTheMaximumWhenServing() {
        for (String bad : List.of("-0.1", "0.9", "NaN", "Infinity", "half", "")) {
            Run run = run(Map.of(), "serve", "--product-view-cache-share", bad);

            assertThat(run.exit()).as("exit code for '%s'", bad).isEqualTo(2);
            assertThat(run.err()).as("error for '%s'", bad).contains("--product-view-cache-share")
                    .contains("'" + bad + "'");
        }
    }

    @Test
    void shouldTakeTheConfigFileOverTheDefault() throws IOException {
        Path file = configFile("""
                http-port=8081
                application-id=shop-a
                deleted-retention=12h
                partitions=6
                streams-config.session.timeout.ms=6000
                request-log=true
                """);

        ServeOptions options = parse(Map.of(), "--config", file.toString());
        ServiceConfig config = options.toConfig();

        assertThat(config.httpPort()).isEqualTo(8081);
        assertThat(config.applicationId()).isEqualTo("shop-a");
        assertThat(config.deletedRetention()).isEqualTo(Duration.ofHours(12));
        assertThat(config.partitions()).isEqualTo(6);
        assertThat(config.streamsOverrides()).containsEntry("session.timeout.ms", "6000");
        assertThat(options.toOperations().requestLog()).isTrue();
    }

    @Test
    void shouldTakeTheEnvironmentOverTheConfigFile() throws IOException {
        Path file = configFile("http-port=8081\napplication-id=shop-a\n");

        ServiceConfig config = parse(Map.of("CATALOG_VIEWS_HTTP_PORT", "8082"), "--config", file.toString())
                .toConfig();

        assertThat(config.httpPort()).isEqualTo(8082);
        assertThat(config.applicationId()).isEqualTo("shop-a");
    }

    @Test
    void shouldTakeTheFlagOverTheEnvironmentAndTheConfigFile() throws IOException {
        Path file = configFile("http-port=8081\nstreams-config.session.timeout.ms=6000\n");

        ServiceConfig config = parse(Map.of("CATALOG_VIEWS_HTTP_PORT", "8082"), "--http-port", "8083",
                "--config", file.toString(), "--streams-config", "session.timeout.ms=7000").toConfig();

        assertThat(config.httpPort()).isEqualTo(8083);
        assertThat(config.streamsOverrides()).containsEntry("session.timeout.ms", "7000");
    }

    @Test
    void shouldReadTheConfigFilePathFromTheEnvironmentWhenNoFlagNamesIt() throws IOException {
        Path file = configFile("http-port=8084\nadmin-token=0123456789abcdef-from-file\n");

        ServeOptions options = parse(Map.of("CATALOG_VIEWS_CONFIG", file.toString()));

        assertThat(options.toConfig().httpPort()).isEqualTo(8084);
        assertThat(options.toOperations().adminToken().isRequired()).isTrue();
    }

    @Test
    void shouldReadOperationsOptionsFromTheEnvironment() throws IOException {
        Path kafka = dir.resolve("kafka.properties");
        Files.writeString(kafka, "security.protocol=SSL\n");

        OperationsConfig operations = parse(Map.of("CATALOG_VIEWS_KAFKA_CONFIG", kafka.toString(),
                "CATALOG_VIEWS_ADMIN_TOKEN", "0123456789abcdef-from-env", "CATALOG_VIEWS_REQUEST_LOG", "true"))
                .toOperations();

        assertThat(operations.kafkaClient().properties()).containsEntry("security.protocol", "SSL");
        assertThat(operations.adminToken().isRequired()).isTrue();
        assertThat(operations.requestLog()).isTrue();
    }

    @Test
    void shouldLeaveTheRequestLogOffByDefaultAndTurnItOnWithTheBareFlag() {
        assertThat(parse(Map.of()).toOperations().requestLog()).isFalse();
        assertThat(parse(Map.of(), "--request-log").toOperations().requestLog()).isTrue();
        assertThat(parse(Map.of("CATALOG_VIEWS_REQUEST_LOG", "true"), "--request-log=false").toOperations()
                .requestLog()).isFalse();
    }

    @Test
    void shouldAnswerPlainReadsDirectlyByDefaultAndTurnThatOffByFlagOrEnvironment() {
        assertThat(parse(Map.of()).toLimits().directAnswers()).isTrue();
        assertThat(parse(Map.of(), "--http-direct-answers=false").toLimits().directAnswers()).isFalse();
        assertThat(parse(Map.of("CATALOG_VIEWS_HTTP_DIRECT_ANSWERS", "false")).toLimits().apiSettings(8081)
                .directAnswers()).isFalse();
        assertThat(parse(Map.of("CATALOG_VIEWS_HTTP_DIRECT_ANSWERS", "false"), "--http-direct-answers").toLimits()
                .directAnswers()).isTrue();

        Run run = run(Map.of("CATALOG_VIEWS_HTTP_DIRECT_ANSWERS", "sometimes"), "serve");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--http-direct-answers").contains("'sometimes'");
    }

    @Test
    void shouldFailNamingTheOptionAndTheVariableWhenAnEnvironmentValueIsInvalid() {
        Run run = run(Map.of("CATALOG_VIEWS_HTTP_PORT", "eighty"), "serve");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--http-port").contains("'eighty'")
                .contains("environment variable CATALOG_VIEWS_HTTP_PORT");
    }

    @Test
    void shouldFailNamingTheOptionAndTheFileWhenAConfigFileValueIsInvalid() throws IOException {
        Path file = configFile("partitions=many\n");

        Run run = run(Map.of(), "serve", "--config", file.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--partitions").contains("'many'").contains("key 'partitions' of --config");
    }

    @Test
    void shouldFailNamingTheKeyWhenTheConfigFileHasAnUnknownOption() throws IOException {
        Path file = configFile("htp-port=8081\n");

        Run run = run(Map.of(), "serve", "--config", file.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("--config").contains("unknown option 'htp-port'").contains("http-port");
    }

    @Test
    void shouldFailNamingTheOptionWhenTheConfigFileIsMissing() {
        Run run = run(Map.of(), "serve", "--config", dir.resolve("absent.properties").toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("--config: cannot read");
    }

    @Test
    void shouldFailNamingTheOptionWhenAValueIsOutOfRange() {
        assertThat(run(Map.of(), "serve", "--partitions", "0").err()).contains("--partitions must be >= 1");
        assertThat(run(Map.of(), "serve", "--stream-threads", "0").err()).contains("--stream-threads must be in 1..64");
        assertThat(run(Map.of(), "serve", "--http-port", "70000").err()).contains("--http-port must be in 0..65535");
        assertThat(run(Map.of(), "serve", "--application-id", "has space").err()).contains("--application-id");
        assertThat(run(Map.of(), "serve", "--bootstrap-servers", "kafka-without-port").err())
                .contains("--bootstrap-servers").contains("kafka-without-port");
        assertThat(run(Map.of(), "serve", "--admin-token", "short").err()).contains("--admin-token must be at least 16");
    }

    @Test
    void shouldDeriveTheClusterSecretFromTheApplicationIdAndSignCursorsWithItWhenNoSecretIsSet() {
        SecretsConfig secrets = parse(Map.of(), "--application-id", "shop-a").toOperations().secrets();

        assertThat(secrets.clusterSecretDerived()).isTrue();
        assertThat(secrets.effectiveClusterSecret("shop-a")).isEqualTo("shop-a");
        assertThat(secrets.effectiveCursorSecret("shop-a")).isEqualTo("shop-a");
        assertThat(secrets.effectivePreviousCursorSecret()).isNull();
    }

    @Test
    void shouldTakeTheSecretsFromFlagOverEnvironmentOverConfigFile() throws IOException {
        Path file = configFile("cluster-secret=cluster-from-the-file-0001\n"
                + "previous-cluster-secret=old-cluster-from-the-file\n"
                + "cursor-secret=cursor-from-the-file-00001\n");

        SecretsConfig secrets = parse(Map.of("CATALOG_VIEWS_CLUSTER_SECRET", "cluster-from-the-env-00001",
                        "CATALOG_VIEWS_CURSOR_SECRET", "cursor-from-the-env-000001"), "--config", file.toString(),
                "--cursor-secret", "cursor-from-the-flag-00001").toOperations().secrets();

        assertThat(secrets.clusterSecretDerived()).isFalse();
        assertThat(secrets.effectiveClusterSecret("app")).isEqualTo("cluster-from-the-env-00001");
        assertThat(secrets.previousClusterSecret()).isEqualTo("old-cluster-from-the-file");
        assertThat(secrets.effectiveCursorSecret("app")).isEqualTo("cursor-from-the-flag-00001");
        assertThat(secrets.effectivePreviousCursorSecret()).as("the previous cluster secret is not a cursor secret "
                + "once --cursor-secret is set").isNull();
        assertThat(secrets.toString()).doesNotContain("from-the");
    }

    @Test
    void shouldRotateCursorsWithTheClusterSecretWhenNoCursorSecretIsSet() {
        SecretsConfig secrets = parse(Map.of(), "--cluster-secret", "the-new-cluster-secret",
                "--previous-cluster-secret", "catalog-views").toOperations().secrets();

        assertThat(secrets.effectiveCursorSecret("catalog-views")).isEqualTo("the-new-cluster-secret");
        assertThat(secrets.effectivePreviousCursorSecret()).isEqualTo("catalog-views");
        assertThat(parse(Map.of(), "--cursor-secret", "the-new-cursor-secret", "--previous-cursor-secret", "old")
                .toOperations().secrets().effectivePreviousCursorSecret()).isEqualTo("old");
    }

    @Test
    void shouldFailNamingTheOptionButNotTheValueWhenASecretIsTooShortOrHoldsSpaces() {
        Run tooShort = run(Map.of(), "serve", "--cluster-secret", "short-secret");
        Run withSpace = run(Map.of("CATALOG_VIEWS_CURSOR_SECRET", "has a space in the middle"), "serve");

        assertThat(tooShort.exit()).isEqualTo(1);
        assertThat(tooShort.err()).contains("--cluster-secret must be at least 16").doesNotContain("short-secret");
        assertThat(withSpace.err()).contains("--cursor-secret must not contain spaces").doesNotContain("middle");
    }

    @Test
    void shouldReadTheBoundsOnWorkFromFlagsAndEnvironmentWithTheContractDefaultsOtherwise() {
        assertThat(parse(Map.of()).toLimits()).isEqualTo(RequestLimits.defaults());
        assertThat(RequestLimits.defaults()).isEqualTo(new RequestLimits(10_000, 10_000, 512, 1_000,
                Duration.ofSeconds(30), true));

        RequestLimits limits = parse(Map.of("CATALOG_VIEWS_MAX_WAITERS", "20"), "--scan-budget", "500",
                "--max-in-flight-forwards", "8", "--http-max-connections", "64", "--http-idle-timeout", "5s")
                .toLimits();

        assertThat(limits).isEqualTo(new RequestLimits(500, 20, 8, 64, Duration.ofSeconds(5), true));
        assertThat(limits.apiSettings(8081).httpThreads()).isEqualTo(64 + 48);
    }

    @Test
    void shouldFailNamingTheOptionWhenABoundOnWorkIsOutOfRange() {
        assertThat(run(Map.of(), "serve", "--scan-budget", "10").err()).contains("--scan-budget must be in 100..");
        assertThat(run(Map.of(), "serve", "--max-waiters", "0").err()).contains("--max-waiters must be in 1..");
        assertThat(run(Map.of(), "serve", "--max-in-flight-forwards", "0").err())
                .contains("--max-in-flight-forwards must be in 1..");
        assertThat(run(Map.of(), "serve", "--http-max-connections", "0").err())
                .contains("--http-max-connections must be in 1..");
        assertThat(run(Map.of(), "serve", "--http-idle-timeout", "PT0.05S").err())
                .contains("--http-idle-timeout (ms) must be in 100..");
    }

    @Test
    void shouldFailWhenKafkaClientPropertiesAreGivenForTheEmbeddedBroker() throws IOException {
        Path kafka = dir.resolve("kafka.properties");
        Files.writeString(kafka, "security.protocol=SSL\n");

        Run run = run(Map.of(), "serve", "--kafka-config", kafka.toString(), "--state-dir", dir.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("--kafka-config needs --bootstrap-servers");
    }

    @Test
    void shouldDocumentEveryServeOptionWithItsDefaultWhenHelpIsAsked() {
        CommandLine serve = CatalogViewsCli.commandLine(Map.of()).getSubcommands().get("serve");
        StringWriter out = new StringWriter();
        serve.usage(new PrintWriter(out, true));
        String help = out.toString().replaceAll("\\s+", " "); // line wrapping aside

        for (OptionSpec option : serve.getCommandSpec().options()) {
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            assertThat(String.join(" ", option.description())).as("description of %s", option.longestName())
                    .contains("Default");
            assertThat(help).contains(option.longestName());
        }
        assertThat(help).contains("HTTP port. Default: 8080.").contains("CATALOG_VIEWS_<OPTION>")
                .contains("flag > environment > config file > default");
    }
}
