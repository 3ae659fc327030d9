package io.jxds.api.model.route;

import java.util.Objects;
import java.util.Optional;

/**
 * One of a route's {@code hash_policy} entries that gRPC computes (gRFC A42): the request hash a
 * ring hash or maglev cluster picks its endpoint by. Entries are evaluated in order; each that
 * produces a hash is combined into the previous ones ({@code rotateLeft(hash, 1) ^ next}); a
 * {@link #terminal()} entry ends the evaluation once there is a hash. Entries gRPC does not
 * compute ({@code cookie}, {@code connection_properties}, {@code query_parameter}, a
 * {@code filter_state} key other than {@code io.grpc.channel_id}) produce none and are left out.
 */
public sealed interface HashPolicy permits HashPolicy.Header, HashPolicy.ChannelId {
  /**
   * {@code terminal}: stop once a hash is produced.
   *
   * @return the entry's {@code terminal}
   */
  boolean terminal();

  /**
   * {@code header}: the xxHash64 of the header's value as a route's header matcher reads it (gRFC
   * A28: several values joined with {@code ","}; a {@code -bin} or pseudo-header produces none),
   * after {@code regex_rewrite} when given. A call without the header produces none.
   *
   * @param name {@code header.header_name}, lower case
   * @param rewrite {@code header.regex_rewrite}
   * @param terminal {@code terminal}
   */
  record Header(String name, Optional<RegexRewrite> rewrite, boolean terminal) implements HashPolicy {
    /**
     * Checks the components.
     *
     * @param name the header's name, not empty
     * @param rewrite the rewrite, if any
     * @param terminal {@code terminal}
     * @throws IllegalArgumentException if the name is empty
     */
    public Header {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(rewrite, "rewrite");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("name must not be empty");
      }
    }
  }

  /**
   * {@code filter_state} with key {@code io.grpc.channel_id}: a hash fixed per channel, so that
   * every call of one channel goes to the same endpoint while channels spread.
   *
   * @param terminal {@code terminal}
   */
  record ChannelId(boolean terminal) implements HashPolicy {}
}
