package io.catalogviews.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows of docs/design.md ("Modules and their arrows"), checked on the compiled main classes of every module:
 * events flow schemas → views → topology → api; RocksDB and Kafka Streams internals stay in views (and the
 * service's wiring); nothing in the service depends on the benchmark.
 */
class ModuleBoundariesTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.catalogviews");
    }

    @Test
    void shouldKeepRocksDbInsideTheViewsWhenAnyModuleUsesIt() {
        noClasses().that().resideOutsideOfPackages("io.catalogviews.views..")
                .should().dependOnClassesThat().resideInAPackage("org.rocksdb..")
                .because("RocksDB is the views' storage engine; everything else talks to query interfaces")
                .check(main);
    }

    @Test
    void shouldKeepTheHttpLayerOffKafkaStreamsAndInternalsWhenItServesReads() {
        noClasses().that().resideInAPackage("io.catalogviews.api..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka.streams..", "org.rocksdb..",
                        "io.catalogviews.topology..", "..internals..")
                .because("the HTTP layer reads the views through io.catalogviews.views query interfaces only")
                .check(main);
    }

    @Test
    void shouldKeepTheTopologyOffViewInternalsAndTheApiWhenItAppliesEvents() {
        noClasses().that().resideInAPackage("io.catalogviews.topology..")
                .should().dependOnClassesThat().resideInAnyPackage("io.catalogviews.views..internals..",
                        "io.catalogviews.api..", "io.catalogviews.service..", "io.catalogviews.cli..")
                .check(main);
    }

    @Test
    void shouldKeepTheViewsOffTheTopologyAndTheApiWhenTheyDefineStores() {
        noClasses().that().resideInAPackage("io.catalogviews.views..")
                .should().dependOnClassesThat().resideInAnyPackage("io.catalogviews.topology..",
                        "io.catalogviews.api..", "io.catalogviews.service..", "io.catalogviews.cli..")
                .check(main);
    }

    @Test
    void shouldKeepTheEventCodecsFreeOfEveryOtherModuleWhenTheyDecode() {
        noClasses().that().resideInAPackage("io.catalogviews.events..")
                .should().dependOnClassesThat().resideInAnyPackage("io.catalogviews.views..",
                        "io.catalogviews.topology..", "io.catalogviews.api..", "io.catalogviews.service..")
                .check(main);
    }

    @Test
    void shouldNotDependOnTheBenchmarkWhenOutsideIt() {
        noClasses().that().resideOutsideOfPackage("io.catalogviews.bench..")
                .should().dependOnClassesThat().resideInAPackage("io.catalogviews.bench..")
                .because("the service never ships or calls its benchmark harness")
                .check(main);
    }
}
