package io.jxds.api.internal.route;

import io.jxds.api.model.route.VirtualHost;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the virtual host whose {@code domains} best match a channel's authority (gRFC A27, A28):
 * done once per route configuration, not per call.
 *
 * <p>A domain is one of four kinds, compared as {@link Domains} normalizes both sides (lower case,
 * no trailing dot, the port kept as part of the text):
 *
 * <ol>
 *   <li>exact, {@code foo.example.com:8080}: equal to the authority;
 *   <li>suffix wildcard, {@code *.example.com} or {@code *-prod.example.com}: the authority ends with
 *       what follows the {@code *}, and the {@code *} stands for at least one character;
 *   <li>prefix wildcard, {@code foo.*} or {@code foo-*}: the same at the other end;
 *   <li>{@code *}: anything.
 * </ol>
 *
 * <p>Most specific wins: a better kind beats a worse one (in the order above), and within a kind
 * the longer domain wins; on a tie the first in the resource's order. So for {@code foo.bar.com}
 * the suffix {@code *.com} beats the longer prefix {@code foo.bar.*}. This is envoy's rule
 * ({@code VirtualHost.domains}) and grpc-go's and grpc-core's; grpc-java ranks every wildcard by
 * length alone and would pick {@code foo.bar.*}.
 */
public final class VirtualHostSelector {
  private static final int EXACT = 0;
  private static final int SUFFIX = 1;
  private static final int PREFIX = 2;
  private static final int UNIVERSAL = 3;
  private static final int NONE = 4;

  private VirtualHostSelector() {}

  /**
   * The virtual host for {@code authority}. Never throws, whatever the domains hold.
   *
   * @param hosts the route configuration's virtual hosts, in order
   * @param authority the channel's authority, {@code host[:port]}
   * @return the best match, or null when no domain matches
   */
  public static @Nullable VirtualHost select(List<VirtualHost> hosts, String authority) {
    String a = Domains.normalizeAuthority(authority);
    VirtualHost best = null;
    int bestKind = NONE;
    int bestLength = -1;
    for (VirtualHost host : hosts) {
      for (String raw : host.domains()) {
        String domain = Domains.normalizeDomain(raw);
        if (domain == null) {
          continue;
        }
        int kind = kindIfMatches(domain, a);
        if (kind < bestKind || (kind == bestKind && kind != NONE && domain.length() > bestLength)) {
          best = host;
          bestKind = kind;
          bestLength = domain.length();
          if (kind == EXACT) {
            return best; // nothing beats an exact match, and a longer exact one cannot match
          }
        }
      }
    }
    return best;
  }

  /** The domain's kind when it matches the authority, else {@link #NONE}. */
  private static int kindIfMatches(String domain, String authority) {
    if (domain.equals("*")) {
      return UNIVERSAL;
    }
    int length = domain.length();
    if (domain.charAt(0) == '*') {
      return authority.length() >= length && authority.endsWith(domain.substring(1)) ? SUFFIX : NONE;
    }
    if (domain.charAt(length - 1) == '*') {
      return authority.length() >= length && authority.startsWith(domain.substring(0, length - 1)) ? PREFIX : NONE;
    }
    return domain.equals(authority) ? EXACT : NONE;
  }
}
