package io.jxds.client.internal.cache;

/**
 * The servers that carry the cache's requests: a {@code ServerChain}, the client's top-level one
 * or (gRFC A47) the one of a name's authority, which the name keeps (its entry's {@code servers}).
 */
public interface Servers {
  /** A name of a type went on or off the wire: send a request. */
  void wireChanged(String typeUrl, String name);

  /**
   * Whether the serving stream speaks state of the world, where the last name of a type is held
   * and a missing name can mean a deletion; delta xDS unsubscribes names explicitly and deletes
   * with {@code removed_resources}.
   */
  boolean stateOfTheWorld();

  /** gRFC A53: whether the serving server has {@code ignore_resource_deletion}. */
  boolean ignoreResourceDeletion();

  /** Whether requests written now reach a ready stream (so a timer may start). */
  boolean streamReady();

  /**
   * Whether this chain's names go on {@code controller}'s stream: the chain lists that server and
   * has it active (federation, gRFC A47: a server listed by several authorities has one stream).
   */
  boolean carries(Object controller);
}
