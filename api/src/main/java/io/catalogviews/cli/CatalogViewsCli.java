package io.catalogviews.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.Map;

/** The {@code catalog-views} executable: {@code serve}, {@code demo}, {@code publish}, {@code bench}. */
@Command(name = "catalog-views", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Kafka Streams materialized views of product catalogs, served over HTTP.",
        subcommands = {ServeCommand.class, DemoCommand.class, PublishCommand.class, BenchLauncherCommand.class,
                CommandLine.HelpCommand.class})
public final class CatalogViewsCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        return commandLine(System.getenv());
    }

    /**
     * The command line reading option defaults from {@code env} (flag &gt; environment &gt; {@code --config} file
     * &gt; default; see {@link LayeredDefaults}).
     */
    public static CommandLine commandLine(Map<String, String> env) {
        CommandLine cli = new CommandLine(new CatalogViewsCli());
        LayeredDefaults defaults = new LayeredDefaults(env);
        cli.setDefaultValueProvider(defaults);
        cli.setParameterExceptionHandler(defaults.explaining(cli.getParameterExceptionHandler()));
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(commandLine.getColorScheme().errorText("error: " + e.getMessage()));
            return 1;
        });
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
