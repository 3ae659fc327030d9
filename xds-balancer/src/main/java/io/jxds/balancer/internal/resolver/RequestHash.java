package io.jxds.balancer.internal.resolver;

import io.grpc.Metadata;
import io.jxds.api.internal.route.HeaderReader;
import io.jxds.api.model.route.HashPolicy;
import io.jxds.api.model.route.RegexRewrite;
import io.jxds.balancer.internal.hash.XxHash64;
import io.jxds.balancer.internal.manager.ChosenCluster;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A route's {@code hash_policy} evaluated for one call (gRFC A42), once, when the route is chosen:
 * entries in order; a {@code header} entry hashes the header's value (xxHash64, seed 0, of the
 * ASCII string, after its {@code regex_rewrite}) read as a route's header matcher reads it (several
 * values joined with {@code ","}; {@code -bin} and pseudo-headers produce nothing;
 * {@code content-type} reads {@code application/grpc}); {@code filter_state io.grpc.channel_id}
 * hashes the channel's id. The first hash is taken as is, each later one combined as
 * {@code rotateLeft(hash, 1) ^ next}; a terminal entry ends the evaluation once there is a hash.
 * Immutable: built once per route table, each header's reader (the route matchers' own
 * {@link HeaderReader}) made once.
 */
public final class RequestHash {
  private static final ChosenCluster NO_CLUSTER = ChosenCluster.of("");

  private final Entry[] entries;
  private final long channelIdHash;

  /**
   * Prepares a route's policies (public for the benchmarks).
   *
   * @param policies the route's hash policies
   * @param channelId the channel's random id, for {@code io.grpc.channel_id}
   */
  public RequestHash(List<HashPolicy> policies, long channelId) {
    this.entries = new Entry[policies.size()];
    for (int i = 0; i < entries.length; i++) {
      HashPolicy p = policies.get(i);
      if (p instanceof HashPolicy.Header h) {
        entries[i] = new Entry(false, HeaderReader.of(h.name()), h.rewrite().orElse(null), h.terminal());
      } else {
        entries[i] = new Entry(true, null, null, p.terminal());
      }
    }
    this.channelIdHash = XxHash64.hash(longBytes(channelId), 0);
  }

  /** Whether the route has any hash policy. */
  boolean isEmpty() {
    return entries.length == 0;
  }

  /**
   * The call's hash.
   *
   * @param headers the call's headers
   * @return the hash, or null when no entry produced one (the cluster's own source decides then:
   *     the application's {@code REQUEST_HASH}, the {@code hashHeader}, else a random hash)
   */
  public @Nullable Long hash(Metadata headers) {
    ChosenCluster chosen = chosen(NO_CLUSTER, headers);
    return chosen.hasRequestHash() ? Long.valueOf(chosen.requestHash()) : null;
  }

  /**
   * The call's choice with its hash: one object for the one call option the call sets (public for
   * the benchmarks).
   *
   * @param chosen the call's cluster, without a hash
   * @param headers the call's headers
   * @return {@code chosen} with the hash, or {@code chosen} itself when no entry produced one
   */
  public ChosenCluster chosen(ChosenCluster chosen, Metadata headers) {
    boolean any = false;
    long hash = 0;
    for (Entry e : entries) {
      long next;
      if (e.channelId) {
        next = channelIdHash;
      } else {
        String value = e.header == null ? null : e.header.read(headers);
        if (value == null) {
          continue;
        }
        next = XxHash64.hash(e.rewrite == null ? value : e.rewrite.rewrite(value));
      }
      hash = any ? Long.rotateLeft(hash, 1) ^ next : next;
      any = true;
      if (e.terminal) {
        break;
      }
    }
    return any ? chosen.withRequestHash(hash) : chosen;
  }

  private static byte[] longBytes(long v) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  /** One entry: the channel id, or a header's reader. */
  private record Entry(boolean channelId, @Nullable HeaderReader header, @Nullable RegexRewrite rewrite,
      boolean terminal) {}
}
