package io.jxds.client.internal.bootstrap;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.jxds.client.bootstrap.Authority;
import io.jxds.client.bootstrap.Bootstrap;
import io.jxds.client.bootstrap.BootstrapException;
import io.jxds.client.bootstrap.CertificateProviderSpec;
import io.jxds.client.bootstrap.ChannelCredentialsSpec;
import io.jxds.client.bootstrap.ServerInfo;
import io.jxds.client.internal.DurationText;
import io.jxds.client.internal.tls.GoogleDefaultCredentials;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parses the gRPC xDS bootstrap JSON (the fields jxds uses; unknown fields are ignored, as in
 * every gRPC implementation, with a warning where one is likely a mistake: see {@link
 * UnknownFieldWarnings}). Every error names the source it came from, the field and, when there is
 * one, the value.
 */
public final class BootstrapParser {
  /** What jxds puts in {@code node.user_agent_name}. */
  public static final String USER_AGENT_NAME = "jxds";
  /** The top-level fields of gRPC's bootstrap format (gRFC A27, A29, A47), and jxds's own object. */
  private static final Set<String> TOP_LEVEL_FIELDS = Set.of("xds_servers", "node", "certificate_providers",
      "authorities", "server_listener_resource_name_template", "client_default_listener_resource_name_template",
      "allowed_grpc_services", "jxds");
  private static final Set<String> NODE_FIELDS = Set.of("id", "cluster", "locality", "metadata");
  private static final Set<String> AUTHORITY_FIELDS = Set.of("client_listener_resource_name_template", "xds_servers");
  /** gRFC A97's call credentials type. */
  private static final String JWT_TOKEN_FILE = "jwt_token_file";
  private static final Set<String> JXDS_FIELDS = Set.of("resource_timeout", "client_retention");
  /** How much of a bad value an error quotes. */
  private static final int MAX_VALUE_CHARS = 80;

  private BootstrapParser() {}

  /**
   * Parses {@code json}.
   *
   * @param json the bootstrap document
   * @param source where it came from, used as the prefix of every error message
   * @throws BootstrapException naming {@code source} and the offending field
   */
  public static Bootstrap parse(String json, String source) throws BootstrapException {
    return parse(json, source, BootstrapParser.class.getClassLoader());
  }

  /** {@link #parse(String, String)}, looking for optional dependencies (grpc-alts) in {@code loader}. */
  static Bootstrap parse(String json, String source, ClassLoader loader) throws BootstrapException {
    Struct root;
    try {
      Struct.Builder builder = Struct.newBuilder();
      JsonFormat.parser().merge(json, builder);
      root = builder.build();
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new BootstrapException(source + ": bad JSON: " + e.getMessage(), e);
    }
    Fields top = new Fields(source, "", root);
    // Before the rules: a misspelled xds_servers is then explained before it is reported missing.
    UnknownFieldWarnings.check(source, "", root.getFieldsMap().keySet(), TOP_LEVEL_FIELDS, false);
    List<ServerInfo> servers = parseServers(top, loader);
    Node node = parseNode(top);
    Duration resourceTimeout = Bootstrap.DEFAULT_RESOURCE_TIMEOUT;
    Duration clientRetention = Bootstrap.DEFAULT_CLIENT_RETENTION;
    Optional<Fields> jxds = top.object("jxds");
    if (jxds.isPresent()) {
      UnknownFieldWarnings.check(source, "jxds.", jxds.get().struct.getFieldsMap().keySet(), JXDS_FIELDS, true);
      Optional<Duration> timeout = jxds.get().duration("resource_timeout");
      if (timeout.isPresent()) {
        if (timeout.get().isZero()) {
          throw jxds.get().error("resource_timeout", "must be positive, got 0s");
        }
        resourceTimeout = timeout.get();
      }
      clientRetention = jxds.get().duration("client_retention").orElse(clientRetention);
    }
    Map<String, CertificateProviderSpec> providers = parseCertificateProviders(top);
    String template = top.string("client_default_listener_resource_name_template")
        .orElse(Bootstrap.DEFAULT_LISTENER_TEMPLATE);
    return new Bootstrap(
        servers, node, resourceTimeout, clientRetention, providers, template, parseAuthorities(top, loader));
  }

  // gRFC A47: {"NAME": {"client_listener_resource_name_template": "xdstp://NAME/...", "xds_servers": [...]}}.
  private static Map<String, Authority> parseAuthorities(Fields top, ClassLoader loader)
      throws BootstrapException {
    Optional<Fields> all = top.object("authorities");
    Map<String, Authority> authorities = new LinkedHashMap<>();
    if (all.isEmpty()) {
      return authorities;
    }
    for (String name : all.get().struct.getFieldsMap().keySet()) {
      Fields entry = all.get().object(name).orElseThrow(() -> all.get().error(name, "must be an object"));
      UnknownFieldWarnings.check(
          entry.source, entry.path, entry.struct.getFieldsMap().keySet(), AUTHORITY_FIELDS, false);
      Optional<String> template = entry.string("client_listener_resource_name_template");
      String prefix = "xdstp://" + name + "/";
      if (template.isPresent() && !template.get().startsWith(prefix)) {
        throw entry.error("client_listener_resource_name_template",
            "must start with \"" + prefix + "\"" + entry.got("client_listener_resource_name_template"));
      }
      // Absent or empty: the top-level servers (A47), which the record leaves to its reader.
      List<Fields> servers = entry.objectList("xds_servers");
      authorities.put(name, new Authority(template, servers.isEmpty() ? List.of() : parseServers(entry, loader)));
    }
    return authorities;
  }

  // gRFC A29: {"NAME": {"plugin_name": "file_watcher", "config": {...}}}; file_watcher is the only plugin.
  private static Map<String, CertificateProviderSpec> parseCertificateProviders(Fields top)
      throws BootstrapException {
    Optional<Fields> all = top.object("certificate_providers");
    Map<String, CertificateProviderSpec> providers = new LinkedHashMap<>();
    if (all.isEmpty()) {
      return providers;
    }
    for (String name : all.get().struct.getFieldsMap().keySet()) {
      Fields entry = all.get().object(name).orElseThrow(() -> all.get().error(name, "must be an object"));
      String plugin = entry.string("plugin_name").orElseThrow(() -> entry.error("plugin_name", "is required"));
      if (!plugin.equals(CertificateProviderSpec.FILE_WATCHER)) {
        throw entry.error(
            "plugin_name", "must be " + CertificateProviderSpec.FILE_WATCHER + ", got \"" + plugin + "\"");
      }
      Fields config = entry.object("config").orElseThrow(() -> entry.error("config", "is required"));
      Optional<String> cert = config.string("certificate_file");
      Optional<String> key = config.string("private_key_file");
      Optional<String> ca = config.string("ca_certificate_file");
      if (cert.isPresent() != key.isPresent()) {
        throw config.error(cert.isPresent() ? "private_key_file" : "certificate_file",
            "is required when the other of certificate_file/private_key_file is set");
      }
      if (cert.isEmpty() && ca.isEmpty()) {
        throw config.error("certificate_file", "and private_key_file, or ca_certificate_file, is required");
      }
      Duration refresh = config.duration("refresh_interval")
          .orElse(Duration.ofMinutes(CertificateProviderSpec.DEFAULT_REFRESH_MINUTES));
      if (refresh.isZero()) {
        throw config.error("refresh_interval", "must be positive, got 0s");
      }
      providers.put(name, new CertificateProviderSpec(cert, key, ca, refresh));
    }
    return providers;
  }

  private static List<ServerInfo> parseServers(Fields top, ClassLoader loader) throws BootstrapException {
    List<Fields> entries = top.objectList("xds_servers");
    if (entries.isEmpty()) {
      throw top.error("xds_servers", "is required and must not be empty" + top.got("xds_servers"));
    }
    List<ServerInfo> servers = new ArrayList<>();
    for (Fields server : entries) {
      String uri = server.string("server_uri").orElse("");
      if (uri.isEmpty()) {
        throw server.error("server_uri", "is required" + server.got("server_uri"));
      }
      ChannelCredentialsSpec creds = parseChannelCreds(server, loader);
      rejectCallCreds(server);
      List<String> features = server.stringList("server_features");
      servers.add(new ServerInfo(uri, creds, features));
    }
    return servers;
  }

  // gRFC A97: call_creds of type jwt_token_file. jxds does not attach call credentials to the
  // control-plane channel, and a server that expects the token would refuse every stream, so the
  // bootstrap fails here naming the field; types A97 does not define are ignored, as A97 says.
  private static void rejectCallCreds(Fields server) throws BootstrapException {
    List<Fields> entries = server.objectList("call_creds");
    for (int i = 0; i < entries.size(); i++) {
      String type = entries.get(i).string("type").orElse("");
      if (type.equals(JWT_TOKEN_FILE)) {
        throw server.error("call_creds[" + i + "]", "type \"" + JWT_TOKEN_FILE + "\" is not supported by jxds "
            + "(gRFC A97 call credentials); authenticate with channel_creds (tls with a client certificate, or "
            + GoogleDefaultCredentials.TYPE + ")");
      }
    }
  }

  // The first entry of a supported type wins; an unsupported type before it is skipped (gRPC's rule).
  // google_default is supported when grpc-alts is on the class path; without it, it is skipped like
  // an unknown type, and if nothing after it is supported the error names the artifact.
  private static ChannelCredentialsSpec parseChannelCreds(Fields server, ClassLoader loader)
      throws BootstrapException {
    List<Fields> entries = server.objectList("channel_creds");
    if (entries.isEmpty()) {
      throw server.error("channel_creds", "is required and must not be empty" + server.got("channel_creds"));
    }
    List<String> seen = new ArrayList<>();
    for (Fields creds : entries) {
      String type = creds.string("type").orElse("");
      seen.add(type);
      if (type.equals(ChannelCredentialsSpec.INSECURE)) {
        return ChannelCredentialsSpec.insecure();
      }
      if (type.equals(ChannelCredentialsSpec.GOOGLE_DEFAULT) && GoogleDefaultCredentials.isAvailable(loader)) {
        return ChannelCredentialsSpec.googleDefault();
      }
      if (type.equals(ChannelCredentialsSpec.TLS)) {
        Optional<Fields> config = creds.object("config");
        Optional<String> ca = Optional.empty();
        Optional<String> cert = Optional.empty();
        Optional<String> key = Optional.empty();
        if (config.isPresent()) {
          ca = config.get().string("ca_certificate_file");
          cert = config.get().string("certificate_file");
          key = config.get().string("private_key_file");
          if (cert.isPresent() != key.isPresent()) {
            throw config.get().error(
                cert.isPresent() ? "private_key_file" : "certificate_file",
                "is required when the other of certificate_file/private_key_file is set");
          }
          // Checked here so that a missing file is a bootstrap error naming the field, not an
          // I/O failure later when the client's channel is built.
          requireReadable(config.get(), "ca_certificate_file", ca);
          requireReadable(config.get(), "certificate_file", cert);
          requireReadable(config.get(), "private_key_file", key);
        }
        return new ChannelCredentialsSpec(ChannelCredentialsSpec.TLS, ca, cert, key);
      }
    }
    if (seen.contains(ChannelCredentialsSpec.GOOGLE_DEFAULT)) {
      throw server.error("channel_creds", "type \"" + ChannelCredentialsSpec.GOOGLE_DEFAULT + "\" needs "
          + GoogleDefaultCredentials.ARTIFACT + " on the class path (an optional dependency of jxds), got " + seen);
    }
    throw server.error(
        "channel_creds", "no supported type (jxds supports insecure, tls and google_default), got " + seen);
  }

  private static void requireReadable(Fields config, String field, Optional<String> path)
      throws BootstrapException {
    if (path.isPresent() && !java.nio.file.Files.isReadable(java.nio.file.Path.of(path.get()))) {
      throw config.error(field, "cannot read file \"" + path.get() + "\"");
    }
  }

  private static Node parseNode(Fields top) throws BootstrapException {
    Node.Builder node = Node.newBuilder();
    Optional<Fields> fields = top.object("node");
    if (fields.isPresent()) {
      Fields n = fields.get();
      UnknownFieldWarnings.check(n.source, "node.", n.struct.getFieldsMap().keySet(), NODE_FIELDS, false);
      n.string("id").ifPresent(node::setId);
      n.string("cluster").ifPresent(node::setCluster);
      Optional<Fields> locality = n.object("locality");
      if (locality.isPresent()) {
        Locality.Builder l = Locality.newBuilder();
        locality.get().string("region").ifPresent(l::setRegion);
        locality.get().string("zone").ifPresent(l::setZone);
        locality.get().string("sub_zone").ifPresent(l::setSubZone);
        node.setLocality(l);
      }
      Optional<Fields> metadata = n.object("metadata");
      if (metadata.isPresent()) {
        node.setMetadata(metadata.get().struct);
      }
    }
    return node.setUserAgentName(USER_AGENT_NAME).setUserAgentVersion(userAgentVersion()).build();
  }

  private static String userAgentVersion() {
    String v = BootstrapParser.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /** A value as compact JSON for an error message (an integer without ".0"), cut at 80 characters. */
  static String json(Value v) {
    String text;
    if (v.hasNumberValue() && v.getNumberValue() == Math.rint(v.getNumberValue())
        && Math.abs(v.getNumberValue()) < 1e15) {
      text = Long.toString((long) v.getNumberValue());
    } else if (v.hasListValue()) {
      StringBuilder b = new StringBuilder("[");
      for (Value item : v.getListValue().getValuesList()) {
        b.append(b.length() == 1 ? "" : ",").append(json(item));
      }
      text = b.append(']').toString();
    } else {
      try {
        text = JsonFormat.printer().omittingInsignificantWhitespace().print(v);
      } catch (InvalidProtocolBufferException e) {
        text = v.toString().strip();
      }
    }
    return text.length() <= MAX_VALUE_CHARS ? text : text.substring(0, MAX_VALUE_CHARS) + "...";
  }

  /** A JSON object with its path, so that errors say where they are. */
  private static final class Fields {
    final String source;
    final String path;
    final Struct struct;

    Fields(String source, String path, Struct struct) {
      this.source = source;
      this.path = path;
      this.struct = struct;
    }

    BootstrapException error(String field, String problem) {
      return new BootstrapException(source + ": " + path + field + " " + problem);
    }

    private Value value(String field) {
      Value v = struct.getFieldsOrDefault(field, null);
      return v == null || v.hasNullValue() ? null : v;
    }

    /** {@code ", got VALUE"} for a field that is present, else empty (a missing field has no value). */
    String got(String field) {
      Value v = value(field);
      return v == null ? "" : ", got " + json(v);
    }

    Optional<String> string(String field) throws BootstrapException {
      Value v = value(field);
      if (v == null) {
        return Optional.empty();
      }
      if (!v.hasStringValue()) {
        throw error(field, "must be a string" + got(field));
      }
      return Optional.of(v.getStringValue());
    }

    Optional<Fields> object(String field) throws BootstrapException {
      Value v = value(field);
      if (v == null) {
        return Optional.empty();
      }
      if (!v.hasStructValue()) {
        throw error(field, "must be an object" + got(field));
      }
      return Optional.of(new Fields(source, path + field + ".", v.getStructValue()));
    }

    List<Fields> objectList(String field) throws BootstrapException {
      Value v = value(field);
      List<Fields> out = new ArrayList<>();
      if (v == null) {
        return out;
      }
      if (!v.hasListValue()) {
        throw error(field, "must be a list" + got(field));
      }
      List<Value> items = v.getListValue().getValuesList();
      for (int i = 0; i < items.size(); i++) {
        if (!items.get(i).hasStructValue()) {
          throw error(field + "[" + i + "]", "must be an object, got " + json(items.get(i)));
        }
        out.add(new Fields(source, path + field + "[" + i + "].", items.get(i).getStructValue()));
      }
      return out;
    }

    List<String> stringList(String field) throws BootstrapException {
      Value v = value(field);
      List<String> out = new ArrayList<>();
      if (v == null) {
        return out;
      }
      if (!v.hasListValue()) {
        throw error(field, "must be a list of strings" + got(field));
      }
      for (Value item : v.getListValue().getValuesList()) {
        if (!item.hasStringValue()) {
          throw error(field, "must be a list of strings" + got(field));
        }
        out.add(item.getStringValue());
      }
      return out;
    }

    Optional<Duration> duration(String field) throws BootstrapException {
      Optional<String> text = string(field);
      if (text.isEmpty()) {
        return Optional.empty();
      }
      try {
        return Optional.of(DurationText.parse(text.get()));
      } catch (IllegalArgumentException e) {
        throw error(field, "is invalid: " + e.getMessage());
      }
    }
  }
}
