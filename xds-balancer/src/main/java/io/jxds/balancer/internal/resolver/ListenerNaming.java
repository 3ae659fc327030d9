package io.jxds.balancer.internal.resolver;

import io.grpc.Status;
import io.grpc.StatusOr;
import io.jxds.client.bootstrap.Authority;
import io.jxds.client.bootstrap.Bootstrap;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How a target's name becomes a listener resource name (gRFC A27, "xds Resolver"; A47, "xds
 * Resolver Changes"): the bootstrap's {@code client_default_listener_resource_name_template} for a
 * target without an authority, the {@code client_listener_resource_name_template} of {@code
 * authorities[AUTHORITY]} for one with an authority; an authority the bootstrap lacks is an error.
 * Every {@code %s} of the template is replaced by the name, percent-encoded per path segment when
 * the template is an {@code xdstp:} name.
 *
 * @param defaultTemplate the template for targets without an authority ({@code "%s"} by default)
 * @param authorityTemplates by authority, its template; an empty template is A47's default,
 *     {@code xdstp://AUTHORITY/envoy.config.listener.v3.Listener/%s}
 */
public record ListenerNaming(String defaultTemplate, Map<String, String> authorityTemplates) {
  /** A bootstrap without a template and without authorities. */
  public static final ListenerNaming DEFAULT = new ListenerNaming("%s", Map.of());

  private static final String LISTENER_TYPE = "envoy.config.listener.v3.Listener";
  // RFC 3986, section 3.3: what a path segment holds as is (unreserved, sub-delims, ":", "@").
  private static final String PATH_SEGMENT_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  public ListenerNaming {
    Objects.requireNonNull(defaultTemplate, "defaultTemplate");
    authorityTemplates = Map.copyOf(authorityTemplates);
  }

  /**
   * The templates of a bootstrap: its {@code client_default_listener_resource_name_template} and
   * each authority's {@code client_listener_resource_name_template} (the bootstrap parser checked
   * that each starts with {@code xdstp://AUTHORITY/}).
   *
   * @param bootstrap the bootstrap of the channel's client
   * @return its naming
   */
  public static ListenerNaming of(Bootstrap bootstrap) {
    Map<String, String> templates = new LinkedHashMap<>();
    for (Map.Entry<String, Authority> authority : bootstrap.authorities().entrySet()) {
      templates.put(authority.getKey(), authority.getValue().clientListenerResourceNameTemplate().orElse(""));
    }
    return new ListenerNaming(bootstrap.clientDefaultListenerResourceNameTemplate(), templates);
  }

  /**
   * The listener resource name of a target.
   *
   * @param target the parsed target
   * @return the name, or INVALID_ARGUMENT naming the target and what is wrong
   */
  public StatusOr<String> listenerName(ListenerTarget target) {
    String template;
    if (target.authority().isEmpty()) {
      template = defaultTemplate;
    } else {
      template = authorityTemplates.get(target.authority());
      if (template == null) {
        return invalid(target, "target authority " + target.authority() + " is not in the bootstrap's authorities");
      }
      if (template.isEmpty()) {
        template = "xdstp://" + target.authority() + "/" + LISTENER_TYPE + "/%s";
      }
    }
    boolean xdstp = template.startsWith("xdstp:");
    String name = template.replace("%s", xdstp ? encodeSegments(target.name()) : target.name());
    if (xdstp && !isListenerUri(name)) {
      return invalid(target, "listener name " + name + " is not an xdstp: URI of a " + LISTENER_TYPE);
    }
    return StatusOr.fromValue(name);
  }

  private static boolean isListenerUri(String name) {
    try {
      String path = new URI(name).getRawPath();
      String[] segments = path == null ? new String[0] : path.substring(path.startsWith("/") ? 1 : 0).split("/", -1);
      return segments.length >= 2 && segments[0].equals(LISTENER_TYPE);
    } catch (URISyntaxException e) {
      return false;
    }
  }

  /** Each {@code /}-separated segment percent-encoded on its own, so the slashes stay. */
  private static String encodeSegments(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c == '/' || (c < 0x80 && PATH_SEGMENT_CHARS.indexOf(c) >= 0)) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return out.toString();
  }

  private static StatusOr<String> invalid(ListenerTarget target, String why) {
    return StatusOr.fromStatus(Status.INVALID_ARGUMENT.withDescription("invalid target " + target.uri() + ": " + why));
  }
}
