package io.catalogviews.cli;

import picocli.CommandLine;

/** Reports the jar's implementation version. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[]{"catalog-views " + (version == null ? "development build" : version)};
    }
}
