package io.catalogviews.cli;

import io.catalogviews.service.config.ConfigFile;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an option's value comes from when it is not given as a flag, for commands that take {@code --config}
 * ({@code serve}, {@code demo}): first the environment variable {@code CATALOG_VIEWS_<OPTION>} (the option name
 * upper-cased, dashes as underscores, or the variable the option's annotation names), then the {@code --config}
 * file's key {@code <option>}, then the built-in default. So the precedence is flag &gt; environment &gt; file
 * &gt; default. Picocli asks for defaults after parsing the command line, only for options it did not match,
 * so the {@code --config} value is known by then. Map options ({@code --streams-config}) are merged by
 * {@link ServeOptions}. Remembers where each value came from, so errors can say so.
 */
final class LayeredDefaults implements CommandLine.IDefaultValueProvider {

    static final String ENV_PREFIX = "CATALOG_VIEWS_";
    private static final Pattern ANNOTATED_ENV = Pattern.compile("\\$\\{env:([A-Za-z0-9_]+)");

    private final Map<String, String> env;
    private final Map<ArgSpec, String> sources = new ConcurrentHashMap<>();
    private final Map<Path, ConfigFile> files = new ConcurrentHashMap<>();

    LayeredDefaults(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || option.command() == null) {
            return null;
        }
        OptionSpec configOption = option.command().findOption(ConfigFile.OPTION);
        if (configOption == null || option.typeInfo().isMap() || option.usageHelp() || option.versionHelp()) {
            return null;
        }
        String envName = envName(option);
        String fromEnv = env.get(envName);
        if (fromEnv != null) {
            sources.put(option, "environment variable " + envName);
            return fromEnv;
        }
        if (option == configOption) {
            return null;
        }
        ConfigFile file = configFile(configOption);
        String key = key(option);
        String fromFile = file.get(key);
        if (fromFile != null) {
            sources.put(option, "key '" + key + "' of " + ConfigFile.OPTION + " " + file.source());
            return fromFile;
        }
        return null;
    }

    /** Where the value of {@code arg} came from when not from a flag, or null. */
    String sourceOf(ArgSpec arg) {
        return arg == null ? null : sources.get(arg);
    }

    /** The option's name without leading dashes: its key in the config file. */
    static String key(OptionSpec option) {
        return option.longestName().replaceFirst("^-+", "");
    }

    /** The variable the option's annotation reads ({@code ${env:NAME…}}), else {@code CATALOG_VIEWS_<OPTION>}. */
    static String envName(OptionSpec option) {
        if (option.userObject() instanceof Field field) {
            CommandLine.Option annotation = field.getAnnotation(CommandLine.Option.class);
            if (annotation != null) {
                Matcher m = ANNOTATED_ENV.matcher(annotation.defaultValue());
                if (m.find()) {
                    return m.group(1);
                }
            }
        }
        return ENV_PREFIX + key(option).toUpperCase(Locale.ROOT).replace('-', '_');
    }

    private ConfigFile configFile(OptionSpec configOption) {
        Object value = configOption.getValue();
        Path path = value instanceof Path p ? p : null;
        if (path == null) {
            String fromEnv = env.get(envName(configOption));
            path = fromEnv == null || fromEnv.isBlank() ? null : Path.of(fromEnv);
        }
        if (path == null) {
            return ConfigFile.empty();
        }
        try {
            return files.computeIfAbsent(path, ConfigFile::load);
        } catch (IllegalArgumentException e) {
            // Reported with a clear message when the command validates its options (ServeOptions).
            return ConfigFile.empty();
        }
    }

    /** Adds where a bad value came from (environment, config file) to picocli's parameter errors. */
    CommandLine.IParameterExceptionHandler explaining(CommandLine.IParameterExceptionHandler delegate) {
        return (ex, args) -> {
            String source = sourceOf(ex.getArgSpec());
            if (source != null && ex.getArgSpec() != null) {
                ex = new CommandLine.ParameterException(ex.getCommandLine(), ex.getMessage() + " (value from "
                        + source + ")", ex, ex.getArgSpec(), ex.getValue());
            }
            return delegate.handleParseException(ex, args);
        };
    }
}
