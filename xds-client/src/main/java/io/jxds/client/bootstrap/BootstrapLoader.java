package io.jxds.client.bootstrap;

import io.jxds.client.internal.bootstrap.BootstrapParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Finds and parses the bootstrap, freshly on every {@link #load()} (unlike grpc-java, which reads
 * it once per JVM): the first of these that is set wins.
 *
 * <ol>
 *   <li>system property {@value #PROPERTY_FILE}: a file path
 *   <li>system property {@value #PROPERTY_CONFIG}: the JSON itself
 *   <li>environment variable {@value #ENV_FILE}: a file path
 *   <li>environment variable {@value #ENV_CONFIG}: the JSON itself
 * </ol>
 *
 * <p>The lookups are injectable, so tests can exercise the environment variables.
 */
public final class BootstrapLoader {
  /** The system property naming the bootstrap file. */
  public static final String PROPERTY_FILE = "jxds.bootstrap";
  /** The system property holding the bootstrap JSON. */
  public static final String PROPERTY_CONFIG = "jxds.bootstrapConfig";
  /** The environment variable naming the bootstrap file, as in gRPC. */
  public static final String ENV_FILE = "GRPC_XDS_BOOTSTRAP";
  /** The environment variable holding the bootstrap JSON, as in gRPC. */
  public static final String ENV_CONFIG = "GRPC_XDS_BOOTSTRAP_CONFIG";

  private final Function<String, @Nullable String> systemProperties;
  private final Function<String, @Nullable String> environment;

  /**
   * A loader with its own lookups (tests).
   *
   * @param systemProperties looks up a system property (null when it is unset)
   * @param environment looks up an environment variable (null when it is unset)
   */
  public BootstrapLoader(
      Function<String, @Nullable String> systemProperties, Function<String, @Nullable String> environment) {
    this.systemProperties = Objects.requireNonNull(systemProperties, "systemProperties");
    this.environment = Objects.requireNonNull(environment, "environment");
  }

  /**
   * Reads the JVM's system properties and the process environment.
   *
   * @return a loader on {@link System#getProperty(String)} and {@link System#getenv(String)}
   */
  public static BootstrapLoader fromSystem() {
    return new BootstrapLoader(System::getProperty, System::getenv);
  }

  /**
   * Reads and parses the bootstrap now.
   *
   * @return the bootstrap from the first source that is set
   * @throws BootstrapException if no source is set, the file cannot be read, or the JSON is bad;
   *     the message names the source
   */
  public Bootstrap load() throws BootstrapException {
    String value = systemProperties.apply(PROPERTY_FILE);
    if (isSet(value)) {
      return fromFile("system property " + PROPERTY_FILE, value);
    }
    value = systemProperties.apply(PROPERTY_CONFIG);
    if (isSet(value)) {
      return BootstrapParser.parse(value, "system property " + PROPERTY_CONFIG);
    }
    value = environment.apply(ENV_FILE);
    if (isSet(value)) {
      return fromFile("env " + ENV_FILE, value);
    }
    value = environment.apply(ENV_CONFIG);
    if (isSet(value)) {
      return BootstrapParser.parse(value, "env " + ENV_CONFIG);
    }
    throw new BootstrapException(
        "no xDS bootstrap: set system property "
            + PROPERTY_FILE
            + " (file) or "
            + PROPERTY_CONFIG
            + " (JSON), or env "
            + ENV_FILE
            + " (file) or "
            + ENV_CONFIG
            + " (JSON)",
        true);
  }

  private static Bootstrap fromFile(String sourceName, String path) throws BootstrapException {
    String source = sourceName + "=" + path;
    String json;
    try {
      json = Files.readString(Path.of(path), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new BootstrapException(source + ": cannot read file: " + e, e);
    }
    return BootstrapParser.parse(json, source);
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }
}
