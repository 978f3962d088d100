package io.catalogviews.cluster;

/**
 * Sizes of the system tests: small enough for {@code mvn -B verify}, larger in a soak run
 * ({@code mvn -B verify -pl tests -am -Psoak}, which sets {@code -Dcatalog.soak=true} and lifts the JUnit
 * timeouts; docs/operations.md, "Soak runs").
 */
final class Soak {

    static final boolean ON = Boolean.getBoolean("catalog.soak");

    private Soak() {
    }

    /** {@code normal} in the test suite, {@code soak} in a soak run. */
    static int size(int normal, int soak) {
        return ON ? soak : normal;
    }
}
