package io.jxds.balancer.internal.resolver;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A routed target, {@code xds:[//AUTHORITY]/NAME} or {@code jxds:[//AUTHORITY]/NAME} (gRFC A27,
 * A47): the authority (empty for none) that picks the listener name template, and the name, the
 * path without its leading {@code /}, percent-decoded.
 *
 * @param uri the target as given, for errors
 * @param authority the target's authority, empty for none
 * @param name the target's name
 */
public record ListenerTarget(String uri, String authority, String name) {
  // RFC 3986: what an authority holds as is (unreserved, sub-delims, ":", "@", "[", "]").
  private static final String AUTHORITY_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@[]";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  public ListenerTarget {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(authority, "authority");
    Objects.requireNonNull(name, "name");
  }

  /**
   * Parses a target.
   *
   * @param target the channel's target
   * @return its parts
   * @throws IllegalArgumentException naming the target when it has no absolute path, an empty
   *     name, a query or a fragment
   */
  public static ListenerTarget parse(URI target) {
    String path = target.getPath();
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("target " + target + ": expected " + target.getScheme()
          + ":///NAME or " + target.getScheme() + "://AUTHORITY/NAME (the name's path must start with '/')");
    }
    if (target.getRawQuery() != null || target.getRawFragment() != null) {
      throw new IllegalArgumentException("target " + target + ": a listener target has no query or fragment"
          + " (write '?' and '#' in a name as %3F and %23)");
    }
    String name = path.substring(1);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("target " + target + ": the listener name is empty");
    }
    String authority = target.getRawAuthority() == null ? "" : target.getAuthority();
    return new ListenerTarget(target.toString(), authority, name);
  }

  /**
   * The channel's authority when the channel sets none (gRFC A27: the name, escaped as an
   * authority, so {@code /} becomes {@code %2F}); also what the virtual host is chosen by.
   *
   * @return the escaped name
   */
  public String defaultServiceAuthority() {
    StringBuilder out = new StringBuilder(name.length());
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c < 0x80 && AUTHORITY_CHARS.indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return out.toString();
  }
}
