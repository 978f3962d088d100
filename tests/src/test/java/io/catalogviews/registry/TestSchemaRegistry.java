package io.catalogviews.registry;

import io.catalogviews.cli.registry.SchemaRegistryProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real Apicurio Registry for a test class, as a child process (the production launcher, {@link
 * SchemaRegistryProcess}), from the distribution the build unpacks into {@code api/target/schema-registry}: like the
 * child-process broker, it can be stopped and started again on the same port, keeping its schemas (H2 file).
 */
final class TestSchemaRegistry {

    private TestSchemaRegistry() {
    }

    static SchemaRegistryProcess start() {
        String configured = System.getProperty("catalogViews.schemaRegistryDist");
        Path distribution = SchemaRegistryProcess.findDistribution(configured == null ? null : Path.of(configured))
                .orElseThrow(() -> new IllegalStateException("Apicurio Registry's distribution is missing ("
                        + configured + "); the api module's build unpacks it (mvn -B -pl tests -am verify does)"));
        try {
            Path data = Files.createTempDirectory(Files.createDirectories(Path.of("target", "it-state")),
                    "schema-registry-");
            return SchemaRegistryProcess.start(distribution, data, 0);
        } catch (IOException e) {
            throw new IllegalStateException("cannot make a data directory for the schema registry", e);
        }
    }
}
