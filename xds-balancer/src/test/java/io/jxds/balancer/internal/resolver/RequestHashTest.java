package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import io.jxds.api.model.RegexMatcher;
import io.jxds.api.model.route.HashPolicy;
import io.jxds.api.model.route.RegexRewrite;
import io.jxds.balancer.internal.hash.XxHash64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** gRFC A42's request hash from a route's hash policies. */
class RequestHashTest {
  private static final HashPolicy USER = header("x-user", false);
  private static final HashPolicy TENANT = header("x-tenant", false);

  @Test
  void oneHeaderIsTheXxHash64OfItsValue() {
    assertThat(new RequestHash(List.of(USER), 1).hash(headers("x-user", "alice")))
        .isEqualTo(XxHash64.hash("alice"));
  }

  @Test
  void laterHashesAreCombinedByRotatingTheFormerLeftByOne() {
    long user = XxHash64.hash("alice");
    long tenant = XxHash64.hash("acme");
    assertThat(new RequestHash(List.of(USER, TENANT), 1).hash(headers("x-user", "alice", "x-tenant", "acme")))
        .isEqualTo(Long.rotateLeft(user, 1) ^ tenant);
    assertThat(new RequestHash(List.of(USER, TENANT), 1).hash(headers("x-tenant", "acme")))
        .as("a missing header produces nothing, so the next hash is the first").isEqualTo(tenant);
  }

  @Test
  void aTerminalPolicyStopsOnlyOnceThereIsAHash() {
    RequestHash hash = new RequestHash(List.of(header("x-user", true), TENANT), 1);
    assertThat(hash.hash(headers("x-user", "alice", "x-tenant", "acme"))).isEqualTo(XxHash64.hash("alice"));
    assertThat(hash.hash(headers("x-tenant", "acme"))).isEqualTo(XxHash64.hash("acme"));
  }

  @Test
  void valuesAreJoinedAndBinaryOrAbsentHeadersProduceNothing() {
    Metadata two = headers("x-user", "a");
    two.put(Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER), "b");
    assertThat(new RequestHash(List.of(USER), 1).hash(two)).isEqualTo(XxHash64.hash("a,b"));
    Metadata bin = new Metadata();
    bin.put(Metadata.Key.of("x-id-bin", Metadata.BINARY_BYTE_MARSHALLER), new byte[] {1});
    assertThat(new RequestHash(List.of(header("x-id-bin", false)), 1).hash(bin)).isNull();
    assertThat(new RequestHash(List.of(USER), 1).hash(new Metadata())).isNull();
  }

  @Test
  void theChannelIdIsFixedPerChannelAndTheRewriteAppliesBeforeHashing() {
    RequestHash channel = new RequestHash(List.of(new HashPolicy.ChannelId(false)), 42);
    assertThat(channel.hash(new Metadata())).isEqualTo(channel.hash(headers("x-user", "x")))
        .isNotEqualTo(new RequestHash(List.of(new HashPolicy.ChannelId(false)), 43).hash(new Metadata()));
    HashPolicy rewritten = new HashPolicy.Header("x-user", Optional.of(
        RegexRewrite.of(RegexMatcher.compile("^(\\w+)@.*$"), "\\1")), false);
    assertThat(new RequestHash(List.of(rewritten), 1).hash(headers("x-user", "alice@example.com")))
        .isEqualTo(XxHash64.hash("alice"));
  }

  private static HashPolicy header(String name, boolean terminal) {
    return new HashPolicy.Header(name, Optional.empty(), terminal);
  }

  private static Metadata headers(String... pairs) {
    Metadata m = new Metadata();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(Metadata.Key.of(pairs[i], Metadata.ASCII_STRING_MARSHALLER), pairs[i + 1]);
    }
    return m;
  }
}
