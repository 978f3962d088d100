package io.catalogviews.bench.results;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What was measured ({@code build}): the commit of the git tree the service's jar came from ({@code git rev-parse
 * HEAD} where the jar lies, "unknown" outside a git tree), whether that tree had uncommitted changes to tracked
 * files, when the jar was written, and the same for the harness.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BuildInfo(String serviceJar, String serviceCommit, Boolean serviceTreeDirty, String serviceJarModified,
                        String harnessJar, String harnessCommit, Boolean harnessTreeDirty) {

    public static final String UNKNOWN = "unknown";
}
