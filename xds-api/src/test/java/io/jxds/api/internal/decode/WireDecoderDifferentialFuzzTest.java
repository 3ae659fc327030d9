package io.jxds.api.internal.decode;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.DEGRADED;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.UNHEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.UnknownFieldSet;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.UnpackedResource;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Differential fuzz of the one-pass wire decoder: for seeded valid and mutated
 * ClusterLoadAssignments (DecoderFuzzTest's mutations, plus concatenations, which protobuf reads as
 * a merge), the wire path must give what {@code parseFrom} + the tree decoder give: the equal
 * {@link EndpointsUpdate}, or the same NACK message, or a parse failure. The one-pass half may
 * answer "not sure" (then the fallback matches by construction), but whenever it answers, it must
 * be the tree's answer. {@code ResourceTypes.ENDPOINTS}, which uses it, must name and decode every
 * resource exactly as a descriptor without it.
 *
 * <p>About three seconds in CI; longer: {@code -Djxds.fuzz.iterations=2000000 -Djxds.fuzz.seed=9}.
 */
class WireDecoderDifferentialFuzzTest {
  private static final long ITERATIONS = Long.getLong("jxds.fuzz.iterations", -1);
  private static final long SEED = Long.getLong("jxds.fuzz.seed", 20261121L);
  private static final long CI_BUDGET_NANOS = 3_000_000_000L;
  private static final long CI_MAX_ITERATIONS = 300_000;
  /** The time budget stops a CI run only after this many inputs, so a loaded machine still checks enough. */
  private static final long CI_MIN_ITERATIONS = 5_000;

  /** ENDPOINTS as it was before the wire decoder: parse, then decode the tree. */
  private static final ResourceType<EndpointsUpdate> TREE_ONLY =
      ResourceType.of(
          ResourceTypes.ENDPOINTS_TYPE_URL,
          "EDS",
          false,
          ClusterLoadAssignment.class,
          ClusterLoadAssignment::getClusterName,
          EndpointsDecoder::decode);

  private static final List<Message> SEEDS = seeds();

  @Test
  void wirePathAgreesWithParseThenDecode() {
    RandomGenerator random = TestRandom.seeded(SEED);
    long deadline = System.nanoTime() + CI_BUDGET_NANOS;
    long limit = ITERATIONS > 0 ? ITERATIONS : CI_MAX_ITERATIONS;
    int[] counts = new int[4]; // one-pass accepted, fallback accepted, rejected, unparseable
    long done = 0;
    for (; done < limit; done++) {
      if (ITERATIONS <= 0 && done >= CI_MIN_ITERATIONS && (done & 63) == 0 && System.nanoTime() > deadline) {
        break;
      }
      byte[] bytes = input(random);
      try {
        counts[check(bytes, random)]++;
      } catch (Throwable t) {
        fail("seed " + SEED + ", iteration " + done + ", bytes " + HexFormat.of().formatHex(bytes) + ": " + t, t);
      }
    }
    System.out.printf(
        "wire fuzz seed %d: %d inputs, %d one-pass, %d fallback accepted, %d rejected, %d unparseable%n",
        SEED, done, counts[0], counts[1], counts[2], counts[3]);
    // Every outcome must be exercised, or the comparison proves little.
    assertThat(counts[0]).as("one-pass accepted").isGreaterThan(100);
    assertThat(counts[1]).as("fallback accepted").isPositive();
    assertThat(counts[2]).as("rejected").isPositive();
    assertThat(counts[3]).as("unparseable").isPositive();
  }

  /** Compares every path on {@code bytes}; returns which outcome it was (index into counts). */
  private static int check(byte[] bytes, RandomGenerator random) throws Exception {
    ByteString value = ByteString.copyFrom(bytes);
    Outcome tree = Outcome.tree(bytes);
    Optional<EndpointsUpdate> onePass = EndpointsDecoder.decodeInOnePass(value);
    if (onePass.isPresent()) {
      assertThat(tree.update).as("tree decode of what the one pass accepted (%s)", tree.error).isNotNull();
      assertThat(onePass.get()).isEqualTo(tree.update);
    }
    // The public entry: same model, same message; an unparseable input is a checked rejection.
    try {
      EndpointsUpdate update = EndpointsDecoder.decode(value);
      assertThat(update).as("tree said %s", tree.error).isEqualTo(tree.update);
    } catch (XdsResourceException e) {
      if (tree.parseError) {
        assertThat(e.getMessage()).startsWith("ClusterLoadAssignment \"\": cannot be parsed: ");
      } else {
        assertThat(e.getMessage()).isEqualTo(tree.error);
      }
    }
    compareResourceTypes(value, random);
    if (onePass.isPresent()) {
      return 0;
    }
    return tree.update != null ? 1 : tree.parseError ? 3 : 2;
  }

  /** ResourceTypes.ENDPOINTS against the tree-only descriptor, with and without a Resource wrapper. */
  private static void compareResourceTypes(ByteString value, RandomGenerator random) {
    Any any = Any.newBuilder().setTypeUrl(ResourceTypes.ENDPOINTS_TYPE_URL).setValue(value).build();
    if (random.nextInt(4) == 0) {
      any = Any.pack(Resource.newBuilder().setName(random.nextBoolean() ? "" : "wrapped").setResource(any).build());
    }
    Outcome expected = Outcome.unpacked(TREE_ONLY, any);
    Outcome actual = Outcome.unpacked(ResourceTypes.ENDPOINTS, any);
    assertThat(actual.unpackError).isEqualTo(expected.unpackError);
    assertThat(actual.name).isEqualTo(expected.name);
    assertThat(actual.error).isEqualTo(expected.error);
    assertThat(actual.update).isEqualTo(expected.update);
  }

  private static byte[] input(RandomGenerator random) {
    Message seed = SEEDS.get(random.nextInt(SEEDS.size()));
    switch (random.nextInt(4)) {
      case 0:
        return seed.toByteArray(); // unmutated: mostly the one-pass path
      case 1: { // two assignments back to back: protobuf merges them (last name, endpoints appended)
        byte[] a = random.nextBoolean() ? seed.toByteArray() : DecoderFuzzTest.mutate(seed, random);
        byte[] b = SEEDS.get(random.nextInt(SEEDS.size())).toByteArray();
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
      }
      default:
        return DecoderFuzzTest.mutate(seed, random);
    }
  }

  private static List<Message> seeds() {
    LbEndpoint withMetadata =
        LbEndpoint.newBuilder(
                XdsResources.endpoints("x").locality("a", "", "", l -> l.endpoint("10.1.1.1", 80, HEALTHY))
                    .build().getEndpoints(0).getLbEndpoints(0))
            .setMetadata(Metadata.newBuilder().putFilterMetadata("envoy.lb", Struct.newBuilder()
                .putFields("hash_key", com.google.protobuf.Value.newBuilder().setStringValue("key-1").build())
                .putFields("other", com.google.protobuf.Value.newBuilder().setNumberValue(2).build())
                .build()))
            .build();
    ClusterLoadAssignment unknownFields =
        XdsResources.endpoints("unknown-fields")
            .locality("a", "b", "c", l -> l.weight(2).endpoint("10.0.0.1", 80, HEALTHY, 3))
            .build();
    UnknownFieldSet extra =
        UnknownFieldSet.newBuilder()
            .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(7).addLengthDelimited(ByteString
                .copyFromUtf8("x")).build())
            .build();
    unknownFields =
        unknownFields.toBuilder()
            .setUnknownFields(extra)
            .setEndpoints(0, unknownFields.getEndpoints(0).toBuilder().setUnknownFields(extra)
                .setLbEndpoints(0, unknownFields.getEndpoints(0).getLbEndpoints(0).toBuilder().setUnknownFields(extra)))
            .build();
    return List.of(
        XdsResources.endpoints("payments-eds")
            .locality("us-east", "1a", "", l -> l.priority(0).weight(3)
                .endpoint("10.0.0.1", 8080, HEALTHY)
                .endpoint("10.0.0.2", 8080, HEALTHY, 5)
                .endpoint("2001:db8::1", 443, DRAINING, 7, "host.example"))
            .locality("us-west", "2b", "c", l -> l.priority(1).weight(1).endpoint("::ffff:10.9.8.7", 1, HEALTHY))
            .drop("lb", 25, FractionalPercent.DenominatorType.HUNDRED)
            .overprovisioningFactor(150)
            .build(),
        XdsResources.endpoints("three-priorities")
            .locality("r", "z0", "", l -> l.priority(0).weight(1).endpoint("10.0.0.1", 80, HEALTHY).endpoint("10.0.0.2",
                80, UNHEALTHY))
            .locality("r", "z1", "", l -> l.priority(1).weight(0xFFFF_FFFFL).endpoint("10.0.1.1", 80, DEGRADED,
                0xFFFF_FFFEL))
            .locality("r", "z2", "", l -> l.noWeight().endpoint("10.0.0.1", 80, HEALTHY))
            .locality("r", "z3", "", l -> l.priority(2).weight(4).endpoint("fe80::1", 65535, HEALTHY))
            .drop("a", 5, FractionalPercent.DenominatorType.TEN_THOUSAND)
            .drop("b", 7, FractionalPercent.DenominatorType.MILLION)
            .build(),
        XdsResources.endpoints("bare").localityWithoutId(l -> l.endpoint("192.168.0.1", 443, HEALTHY)).build(),
        XdsResources.endpoints("dual-stack") // gRFC A61: additional_addresses
            .locality("a", "", "", l -> l.weight(2)
                .endpoint("10.0.0.1", 80, HEALTHY, 3).additionalAddress("2001:db8::1", 80)
                .additionalAddress("10.1.0.1", 8080)
                .endpoint("10.0.0.2", 80, DRAINING).additionalAddress("2001:db8::2", 80))
            .build(),
        XdsResources.endpoints("metadata").locality("a", "", "", l -> l.lbEndpoint(withMetadata)).build(),
        unknownFields);
  }

  /** What one path said: a model, or an error message, or (for unpack) an unpack error. */
  private static final class Outcome {
    EndpointsUpdate update;
    String error;
    boolean parseError;
    String unpackError;
    String name;

    static Outcome tree(byte[] bytes) {
      Outcome o = new Outcome();
      ClusterLoadAssignment cla;
      try {
        cla = ClusterLoadAssignment.parseFrom(bytes);
      } catch (InvalidProtocolBufferException e) {
        o.parseError = true;
        o.error = "unparseable: " + e.getMessage();
        return o;
      }
      try {
        o.update = EndpointsDecoder.decode(cla);
      } catch (XdsResourceException e) {
        o.error = e.getMessage();
      }
      return o;
    }

    static Outcome unpacked(ResourceType<EndpointsUpdate> type, Any any) {
      Outcome o = new Outcome();
      UnpackedResource<EndpointsUpdate> unpacked;
      try {
        unpacked = ResourceDecoding.unpack(type, any);
      } catch (XdsResourceException e) {
        o.unpackError = e.resourceName() + ": " + e.getMessage();
        return o;
      }
      o.name = unpacked.name();
      try {
        o.update = unpacked.decode();
      } catch (XdsResourceException e) {
        o.error = e.resourceName() + ": " + e.getMessage();
      }
      return o;
    }
  }
}
