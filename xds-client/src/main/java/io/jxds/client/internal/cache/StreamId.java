package io.jxds.client.internal.cache;

import java.util.Objects;

/**
 * One ADS stream to one server: the {@code generation}-th stream the client opened to {@code
 * server}. A delta value is current only while a live stream vouches for it: the one that sent it,
 * or one told of it in {@code initial_resource_versions} (ARCHITECTURE.md, "Glossary").
 *
 * @param server the server the stream goes to
 * @param generation counts the streams opened to that server, from 1
 */
public record StreamId(ServerId server, long generation) {
  public StreamId {
    Objects.requireNonNull(server, "server");
  }
}
