package io.jxds.client.internal.cache;

import java.util.Objects;

/**
 * One control plane of the client (one of the bootstrap's {@code xds_servers}, gRFC A71, or of an
 * authority's, gRFC A47), as the cache knows it: which server sent a value. A delta resource's version means something
 * only to the server that sent it (ARCHITECTURE.md, "The xDS client").
 *
 * @param index the server's number among the client's distinct servers (with one list, its
 *     position in {@code xds_servers}, 0 for the primary)
 * @param target the server's target, for logs
 */
public record ServerId(int index, String target) {
  public ServerId {
    Objects.requireNonNull(target, "target");
  }
}
