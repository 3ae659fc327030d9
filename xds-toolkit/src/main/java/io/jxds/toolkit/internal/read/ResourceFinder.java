package io.jxds.toolkit.internal.read;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.jxds.api.ResourceTypes;
import io.jxds.toolkit.BadInputException;
import io.jxds.toolkit.XdsResource;
import io.jxds.toolkit.internal.KnownTypes;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Finds the xDS resources in one JSON document (envoy's proto3 JSON) and turns each into the
 * {@code Any} a client would receive. A document is one of: a resource with {@code "@type"} (or an
 * {@code envoy.service.discovery.v3.Resource} wrapper), a {@code DiscoveryResponse}, an Envoy
 * {@code /config_dump} ({@code envoy.admin.v3.ConfigDump}), a CSDS {@code ClientStatusResponse} or
 * {@code ClientConfig}, or a JSON array of any of these. Every complaint names the source and line.
 */
public final class ResourceFinder {
  /** What a document held: its resources, and notes on what was skipped or ignored. */
  public record Found(List<XdsResource> resources, List<String> notes) {}

  private static final String WRAPPER = "envoy.service.discovery.v3.Resource";

  private final byte[] text;
  private final String source;
  private final List<XdsResource> resources = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final FastProtoReader fast;
  private final List<Pending> pending = new ArrayList<>();
  private JsonFormat.Parser strict;
  private JsonFormat.Parser lenient;

  private ResourceFinder(byte[] text, String source) {
    this.text = text;
    this.source = source;
    this.fast = new FastProtoReader(text);
  }

  /**
   * Reads one document.
   *
   * @param text the JSON text's UTF-8 bytes (the found resources' nodes keep them: do not change them)
   * @param source names it in messages (a file name)
   * @throws BadInputException naming the source and line
   */
  public static Found find(byte[] text, String source) throws BadInputException {
    JsonNode root;
    List<JsonNode> types = new ArrayList<>();
    try {
      root = JsonText.parse(text, types);
    } catch (JsonText.SyntaxError e) {
      if (e.notUtf8() || !isUtf8(text)) {
        throw new BadInputException(source + ": not xDS JSON: not UTF-8 text (the toolkit reads envoy's proto3 JSON)");
      }
      throw new BadInputException(source + ":" + e.line() + ": not JSON: " + e.getMessage());
    }
    ResourceFinder finder = new ResourceFinder(text, source);
    finder.typeRegistry(types);
    finder.document(root);
    finder.readPending();
    return new Found(List.copyOf(finder.resources), List.copyOf(finder.notes));
  }

  private void document(JsonNode root) throws BadInputException {
    if (root.isArray()) {
      for (int i = 0; i < root.elements().size(); i++) {
        container(root.elements().get(i), "[" + i + "]");
      }
    } else {
      container(root, "");
    }
  }

  private void container(JsonNode n, String path) throws BadInputException {
    if (!n.isObject()) {
      throw bad(n, path, "not xDS JSON: expected an object");
    }
    String type = n.stringMember("@type");
    if (type != null) {
      String name = type.substring(type.lastIndexOf('/') + 1);
      switch (name) {
        case "envoy.admin.v3.ConfigDump" -> configDump(n, path);
        case "envoy.service.status.v3.ClientStatusResponse" -> clientStatus(n, path);
        case "envoy.service.status.v3.ClientConfig" -> clientConfig(n, path);
        case "envoy.service.discovery.v3.DiscoveryResponse" -> response(n, path);
        default -> {
          if (name.startsWith("envoy.admin.v3.") && name.endsWith("ConfigDump")) {
            section(n, name.substring("envoy.admin.v3.".length()), path);
          } else {
            resource(n, null, 0, path);
          }
        }
      }
    } else if (n.member("configs") != null) {
      configDump(n, path);
    } else if (n.member("config") != null) {
      clientStatus(n, path);
    } else if (n.member("generic_xds_configs", "genericXdsConfigs", "xds_config", "xdsConfig") != null) {
      clientConfig(n, path);
    } else if (n.member("resources") != null) {
      response(n, path);
    } else {
      throw bad(n, path, "not xDS JSON: expected a resource with \"@type\", a DiscoveryResponse (\"resources\"),"
          + " an Envoy /config_dump (\"configs\") or a CSDS ClientConfig (\"generic_xds_configs\")");
    }
  }

  private void response(JsonNode n, String path) throws BadInputException {
    JsonNode typeNode = n.member("type_url", "typeUrl");
    if (typeNode == null || typeNode.string() == null) {
      throw bad(n, path, "DiscoveryResponse without a type_url");
    }
    String typeUrl = typeNode.string();
    if (!KnownTypes.isKnown(typeUrl)) {
      throw bad(typeNode, child(path) + "type_url", unknownType(typeUrl));
    }
    List<JsonNode> list = array(n, path, "resources");
    for (int i = 0; i < list.size(); i++) {
      resource(list.get(i), typeUrl, i, child(path) + "resources[" + i + "]");
    }
  }

  private void configDump(JsonNode n, String path) throws BadInputException {
    List<JsonNode> configs = array(n, path, "configs");
    for (int i = 0; i < configs.size(); i++) {
      JsonNode c = configs.get(i);
      String type = c.stringMember("@type");
      String where = child(path) + "configs[" + i + "]";
      if (type == null) {
        throw bad(c, where, "config dump entry without \"@type\"");
      }
      section(c, type.substring(type.lastIndexOf('/') + 1).replace("envoy.admin.v3.", ""), where);
    }
  }

  /** One section of a config dump, by its kind ({@code ClustersConfigDump}, ...). */
  private void section(JsonNode n, String kind, String path) throws BadInputException {
    switch (kind) {
      case "ClustersConfigDump" -> {
        typed(n, path, ResourceTypes.CLUSTER_TYPE_URL, "cluster", "static_clusters", "staticClusters");
        typed(n, path, ResourceTypes.CLUSTER_TYPE_URL, "cluster", "dynamic_active_clusters", "dynamicActiveClusters");
        typed(n, path, ResourceTypes.CLUSTER_TYPE_URL, "cluster", "dynamic_warming_clusters",
            "dynamicWarmingClusters");
      }
      case "EndpointsConfigDump" -> {
        typed(n, path, ResourceTypes.ENDPOINTS_TYPE_URL, "endpoint_config", "static_endpoint_configs",
            "staticEndpointConfigs");
        typed(n, path, ResourceTypes.ENDPOINTS_TYPE_URL, "endpoint_config", "dynamic_endpoint_configs",
            "dynamicEndpointConfigs");
      }
      case "ListenersConfigDump" -> {
        typed(n, path, KnownTypes.LISTENER_TYPE_URL, "listener", "static_listeners", "staticListeners");
        for (JsonNode d : optionalArray(n, "dynamic_listeners", "dynamicListeners")) {
          for (String state : new String[] {"active_state", "activeState", "warming_state", "warmingState"}) {
            JsonNode s = d.member(state);
            JsonNode listener = s == null ? null : s.member("listener");
            if (listener != null) {
              typedOne(listener, child(path) + "dynamic_listeners." + state + ".listener",
                  KnownTypes.LISTENER_TYPE_URL);
            }
          }
        }
      }
      case "RoutesConfigDump" -> {
        typed(n, path, KnownTypes.ROUTE_TYPE_URL, "route_config", "static_route_configs", "staticRouteConfigs");
        typed(n, path, KnownTypes.ROUTE_TYPE_URL, "route_config", "dynamic_route_configs", "dynamicRouteConfigs");
      }
      default -> notes.add(source + ":" + n.line() + " " + path + ": skipped " + kind
          + " (a gRPC client reads " + KnownTypes.known() + ")");
    }
  }

  /** Every {@code arrays[i].field} of a config-dump section, each of {@code typeUrl}. */
  private void typed(JsonNode n, String path, String typeUrl, String field, String... arrayNames)
      throws BadInputException {
    List<JsonNode> entries = optionalArray(n, arrayNames);
    for (int i = 0; i < entries.size(); i++) {
      JsonNode value = entries.get(i).member(field, camel(field));
      if (value != null) {
        typedOne(value, child(path) + "" + arrayNames[0] + "[" + i + "]." + field, typeUrl);
      }
    }
  }

  private void typedOne(JsonNode value, String path, String typeUrl) throws BadInputException {
    String type = value.stringMember("@type");
    if (type != null && !type.equals(typeUrl)) {
      throw bad(value, path, "type URL must be " + typeUrl + " here, got " + type);
    }
    resource(value, null, 0, path);
  }

  private void clientStatus(JsonNode n, String path) throws BadInputException {
    List<JsonNode> configs = array(n, path, "config");
    for (int i = 0; i < configs.size(); i++) {
      clientConfig(configs.get(i), child(path) + "config[" + i + "]");
    }
  }

  private void clientConfig(JsonNode n, String path) throws BadInputException {
    List<JsonNode> generic = optionalArray(n, "generic_xds_configs", "genericXdsConfigs");
    for (int i = 0; i < generic.size(); i++) {
      JsonNode g = generic.get(i);
      String where = child(path) + "generic_xds_configs[" + i + "]";
      String typeUrl = g.stringMember("type_url", "typeUrl");
      String name = g.stringMember("name");
      String status = g.stringMember("client_status", "clientStatus");
      JsonNode config = g.member("xds_config", "xdsConfig");
      if (typeUrl != null && !KnownTypes.isKnown(typeUrl)) {
        throw bad(g, where, unknownType(typeUrl));
      }
      if ("NACKED".equals(status)) {
        JsonNode error = g.member("error_state", "errorState");
        String details = error == null ? null : error.stringMember("details");
        notes.add(source + ":" + g.line() + " " + where + ": " + KnownTypes.shortName(String.valueOf(typeUrl))
            + " \"" + name + "\" was NACKED by that client" + (details == null ? "" : ": " + details)
            + (config == null ? "" : "; its last good value is checked"));
      }
      if (config == null) {
        notes.add(source + ":" + g.line() + " " + where + ": " + KnownTypes.shortName(String.valueOf(typeUrl))
            + " \"" + name + "\" has no value" + (status == null ? "" : " (" + status + ")"));
        continue;
      }
      if (typeUrl != null) {
        typedOne(config, child(where) + "xds_config", typeUrl);
      } else {
        resource(config, null, 0, child(where) + "xds_config");
      }
    }
    List<JsonNode> perXds = optionalArray(n, "xds_config", "xdsConfig");
    for (int i = 0; i < perXds.size(); i++) {
      JsonNode p = perXds.get(i);
      String where = child(path) + "xds_config[" + i + "]";
      section(p, "cluster_config", "clusterConfig", "ClustersConfigDump", where);
      section(p, "endpoint_config", "endpointConfig", "EndpointsConfigDump", where);
      section(p, "listener_config", "listenerConfig", "ListenersConfigDump", where);
      section(p, "route_config", "routeConfig", "RoutesConfigDump", where);
    }
  }

  private void section(JsonNode perXds, String field, String camel, String kind, String path)
      throws BadInputException {
    JsonNode s = perXds.member(field, camel);
    if (s != null) {
      section(s, kind, child(path) + "" + field);
    }
  }

  /**
   * One resource: its JSON is an {@code Any}'s ({@code "@type"} and the message's fields).
   *
   * @param responseType the DiscoveryResponse's {@code type_url} it came under, null alone
   */
  private void resource(JsonNode n, @Nullable String responseType, int index, String path)
      throws BadInputException {
    if (!n.isObject()) {
      throw bad(n, path, "a resource must be an object, got " + n.kind().name().toLowerCase(java.util.Locale.ROOT));
    }
    JsonNode typeNode = n.member("@type");
    if (typeNode == null || typeNode.string() == null) {
      throw bad(n, path, "a resource needs \"@type\" (e.g. \"" + ResourceTypes.CLUSTER_TYPE_URL + "\")");
    }
    String decodeAs = responseType;
    if (decodeAs == null) {
      decodeAs = typeNode.string();
      if (decodeAs.endsWith("/" + WRAPPER)) {
        JsonNode inner = n.member("resource");
        String innerType = inner == null ? null : inner.stringMember("@type");
        decodeAs = innerType == null ? decodeAs : innerType;
      }
      if (!KnownTypes.isKnown(decodeAs)) {
        throw bad(typeNode, path, unknownType(decodeAs));
      }
    }
    pending.add(new Pending(n, decodeAs, index, path));
  }

  /** A resource found, its proto still to read. */
  private record Pending(JsonNode node, String decodeAs, int index, String path) {}

  /**
   * Reads every resource found into its {@code Any}: the fast reader in parallel (each resource is
   * independent), then in order JsonFormat for what it left, so that notes and errors come in the
   * document's order.
   */
  private void readPending() throws BadInputException {
    List<Any> fastAnys = pending.parallelStream().map(p -> {
      try {
        // Read from the resource's text: the document's tree keeps only its top.
        ByteString value = fast.readAnyBytes(p.node());
        return Any.newBuilder().setTypeUrl(p.node().stringMember("@type")).setValue(value).build();
      } catch (FastProtoReader.Unsupported e) {
        return null; // JsonFormat reads it below: the same proto, and JsonFormat's messages
      }
    }).toList();
    for (int i = 0; i < pending.size(); i++) {
      Pending p = pending.get(i);
      Any any = fastAnys.get(i) != null ? fastAnys.get(i) : toAny(p.node(), p.path());
      String where = source + ":" + p.node().line() + (p.path().isEmpty() ? "" : " " + p.path());
      resources.add(new XdsResource(p.decodeAs(), any, where, p.index()));
    }
  }

  private Any toAny(JsonNode n, String path) throws BadInputException {
    String json = n.text();
    Any.Builder any = Any.newBuilder();
    try {
      strict.merge(json, any);
      return any.build();
    } catch (InvalidProtocolBufferException e) {
      String message = String.valueOf(e.getMessage());
      if (!message.startsWith("Cannot find field")) {
        throw bad(n, path, "cannot read " + typeName(n) + ": " + message, e);
      }
      // A field of a newer envoy API: the client ignores fields it does not know, and so does this.
      notes.add(source + ":" + n.line() + (path.isEmpty() ? "" : " " + path) + ": " + message
          + ": not in jxds's envoy API, ignored (as a client ignores unknown fields)");
    }
    try {
      Any.Builder again = Any.newBuilder();
      lenient.merge(json, again);
      return again.build();
    } catch (InvalidProtocolBufferException e) {
      throw bad(n, path, "cannot read " + typeName(n) + ": " + e.getMessage(), e);
    }
  }

  /** One registry for the document: every {@code "@type"} in it, each found on the class path. */
  private void typeRegistry(List<JsonNode> types) throws BadInputException {
    Map<String, Descriptor> found = new LinkedHashMap<>();
    Set<String> containers = new HashSet<>();
    for (JsonNode type : types) {
      String url = type.string();
      if (found.containsKey(url) || containers.contains(url)) {
        continue;
      }
      Descriptor d = MessageTypes.find(url).orElse(null);
      if (d != null) {
        found.put(url, d);
      } else if (isContainer(url)) {
        containers.add(url);
      } else {
        throw new BadInputException(source + ":" + type.line() + ": unknown \"@type\" " + url
            + ": no such message in jxds's envoy API (io.envoyproxy.controlplane:api), so a gRPC client"
            + " built on it could not read it either");
      }
    }
    JsonFormat.TypeRegistry registry = JsonFormat.TypeRegistry.newBuilder().add(found.values()).build();
    strict = JsonFormat.parser().usingTypeRegistry(registry);
    lenient = strict.ignoringUnknownFields();
  }

  /** Whether the bytes are UTF-8 as Java's strict decoder reads it (asked when they are not JSON). */
  private static boolean isUtf8(byte[] text) {
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(text));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** Container types are walked here, not parsed by JsonFormat: their descriptor is not needed. */
  private static boolean isContainer(String url) {
    return url.contains("envoy.admin.v3.") || url.contains("envoy.service.status.v3.");
  }

  private List<JsonNode> array(JsonNode n, String path, String... names) throws BadInputException {
    JsonNode a = n.member(names);
    if (a == null || !a.isArray()) {
      throw bad(n, path, "expected an array \"" + names[0] + "\"");
    }
    return a.elements();
  }

  private static List<JsonNode> optionalArray(JsonNode n, String... names) {
    JsonNode a = n.member(names);
    return a == null || !a.isArray() ? List.of() : a.elements();
  }

  /** {@code path.} before a child's name, nothing at the document's root. */
  private static String child(String path) {
    return path.isEmpty() ? "" : path + ".";
  }

  private static String camel(String snake) {
    StringBuilder s = new StringBuilder();
    boolean up = false;
    for (char c : snake.toCharArray()) {
      if (c == '_') {
        up = true;
      } else {
        s.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return s.toString();
  }

  private static String typeName(JsonNode n) {
    String type = n.stringMember("@type");
    return type == null ? "the resource" : type.substring(type.lastIndexOf('/') + 1);
  }

  private static String unknownType(String typeUrl) {
    return "unknown type " + typeUrl + ": the toolkit reads " + KnownTypes.known();
  }

  private BadInputException bad(JsonNode n, String path, String message) {
    return new BadInputException(source + ":" + n.line() + (path.isEmpty() ? "" : " " + path) + ": " + message);
  }

  private BadInputException bad(JsonNode n, String path, String message, Throwable cause) {
    return new BadInputException(
        source + ":" + n.line() + (path.isEmpty() ? "" : " " + path) + ": " + message, cause);
  }
}
