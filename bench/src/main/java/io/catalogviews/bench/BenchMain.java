package io.catalogviews.bench;

import picocli.CommandLine;

/**
 * Main class of the harness's executable jar ({@code bench/target/catalog-views-bench.jar}), which
 * {@code bin/catalog-views bench …} runs: {@link BenchCommand} through picocli, errors printed as the service's
 * CLI prints them ({@code error: <message>}, exit code 1).
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        // Named as users type it: bin/catalog-views bench …
        CommandLine cli = new CommandLine(new BenchCommand()).setCommandName("catalog-views bench");
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(commandLine.getColorScheme().errorText("error: " + e.getMessage()));
            return 1;
        });
        return cli;
    }
}
