package io.jxds.api.internal.route;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How jxds reads a virtual host's {@code domains} and a channel's authority, so that both compare
 * as the same kind of text: lower case (host names are case-insensitive), and without the trailing
 * dot of an absolute name ({@code foo.ns.svc.cluster.local.} and {@code foo.ns.svc.cluster.local.:8080},
 * which istiod 1.28+ lists next to the plain forms, name the same host as without it). A port stays:
 * gRPC matches {@code host:port} as one string (gRFC A27).
 *
 * <p>A domain that can match no authority is malformed and left out: empty, starting with a dot, a
 * dot left at the end after the one removed, more than one {@code *}, or a {@code *} that is not
 * its first or last character. grpc-java throws on some of these (empty, leading or trailing dot)
 * inside the channel's synchronization context, which kills the channel; here they are data.
 */
public final class Domains {
  private Domains() {}

  /**
   * A {@code domains} entry as matched.
   *
   * @param domain the entry as the control plane wrote it
   * @return lower case, the host's trailing dot removed; null when malformed
   */
  public static @Nullable String normalizeDomain(String domain) {
    String d = normalizeAuthority(domain);
    int portStart = portStart(d);
    String host = d.substring(0, portStart);
    if (host.isEmpty() || host.charAt(0) == '.' || host.charAt(host.length() - 1) == '.') {
      return null;
    }
    int star = d.indexOf('*');
    if (star >= 0 && (d.indexOf('*', star + 1) >= 0 || (star != 0 && star != d.length() - 1))) {
      return null;
    }
    return d;
  }

  /**
   * An authority (the channel's {@code host[:port]}) as matched; never fails.
   *
   * @param authority the authority
   * @return lower case, the host's trailing dot removed
   */
  public static String normalizeAuthority(String authority) {
    String a = authority.toLowerCase(Locale.ROOT);
    int portStart = portStart(a);
    if (portStart > 0 && a.charAt(portStart - 1) == '.') {
      return a.substring(0, portStart - 1) + a.substring(portStart);
    }
    return a;
  }

  /**
   * Where {@code :port} starts, or the length when there is none: a last {@code :} followed by
   * digits only, after a host that is a bracketed IPv6 literal or has no other {@code :}.
   */
  private static int portStart(String s) {
    int colon = s.lastIndexOf(':');
    if (colon < 0 || colon == s.length() - 1) {
      return s.length();
    }
    for (int i = colon + 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return s.length();
      }
    }
    boolean bracketed = colon > 0 && s.charAt(colon - 1) == ']';
    return bracketed || s.indexOf(':') == colon ? colon : s.length();
  }
}
