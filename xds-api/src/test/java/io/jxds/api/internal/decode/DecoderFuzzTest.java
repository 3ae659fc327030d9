package io.jxds.api.internal.decode;

import static io.envoyproxy.envoy.config.core.v3.HealthStatus.DRAINING;
import static io.envoyproxy.envoy.config.core.v3.HealthStatus.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.jxds.api.ResourceType;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.util.HexFormat;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Seeded mutation fuzzing: valid Cluster and ClusterLoadAssignment protos are mutated (bytes
 * flipped, inserted, truncated, spliced; fields set to random or boundary values through proto
 * reflection) and fed through {@code ResourceDecoding.unpack(ResourceTypes.X, any).decode()}. The only exception
 * allowed out is {@link XdsResourceException}.
 *
 * <p>In CI it runs for about three seconds. A longer run:
 * {@code mvn -pl xds-api -am test -Dtest=DecoderFuzzTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Djxds.fuzz.iterations=5000000 -Djxds.fuzz.seed=7}.
 */
class DecoderFuzzTest {
  private static final long ITERATIONS = Long.getLong("jxds.fuzz.iterations", -1);
  private static final long SEED = Long.getLong("jxds.fuzz.seed", 20261121L);
  private static final long CI_BUDGET_NANOS = 3_000_000_000L;
  private static final long CI_MAX_ITERATIONS = 200_000;
  /** The time budget stops a CI run only after this many inputs, so a loaded machine still checks enough. */
  private static final long CI_MIN_ITERATIONS = 5_000;

  private static final List<Message> SEEDS =
      List.of(
          XdsResources.cluster("payments").build(),
          XdsResources.cluster("payments")
              .edsServiceName("payments-eds")
              .maxRequests(100)
              .lrsSelf()
              .loadBalancingPolicy(XdsResources.wrrLocality(XdsResources.roundRobin()))
              .upstreamTls("payments.example.com")
              .build(),
          XdsResources.endpoints("payments-eds")
              .locality("us-east", "1a", "", l -> l.priority(0).weight(3)
                  .endpoint("10.0.0.1", 8080, HEALTHY)
                  .endpoint("10.0.0.2", 8080, HEALTHY, 5)
                  .endpoint("2001:db8::1", 443, DRAINING, 7, "host.example"))
              .locality("us-west", "2b", "c", l -> l.priority(1).weight(1).endpoint("::ffff:10.9.8.7", 1, HEALTHY))
              .drop("lb", 25, FractionalPercent.DenominatorType.HUNDRED)
              .overprovisioningFactor(150)
              .build());

  private static final String[] STRINGS = {
    "", "10.0.0.1", "::1", "1.2.3.4.5", "localhost", "::", "envoy.transport_sockets.tls", "payments",
    "type.googleapis.com/envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin", "\u0000", "é",
  };
  private static final long[] NUMBERS = {
    0, 1, -1, 2, 65535, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF_FFFFL, Long.MAX_VALUE, Long.MIN_VALUE,
  };

  @Test
  void decodersThrowNothingButXdsResourceException() {
    RandomGenerator random = TestRandom.seeded(SEED);
    long deadline = System.nanoTime() + CI_BUDGET_NANOS;
    long limit = ITERATIONS > 0 ? ITERATIONS : CI_MAX_ITERATIONS;
    long done = 0;
    int decoded = 0;
    int rejected = 0;
    for (; done < limit; done++) {
      if (ITERATIONS <= 0 && done >= CI_MIN_ITERATIONS && (done & 63) == 0 && System.nanoTime() > deadline) {
        break;
      }
      Message seed = SEEDS.get(random.nextInt(SEEDS.size()));
      boolean isCluster = seed instanceof Cluster;
      byte[] bytes = mutate(seed, random);
      ResourceType<?> type = isCluster ? ResourceTypes.CLUSTER : ResourceTypes.ENDPOINTS;
      Any any = Any.newBuilder().setTypeUrl(type.typeUrl()).setValue(ByteString.copyFrom(bytes)).build();
      if (random.nextInt(8) == 0) {
        any = Any.pack(Resource.newBuilder().setName(random.nextBoolean() ? "" : "wrapped").setResource(any).build());
      }
      try {
        ResourceDecoding.unpack(type, any).decode();
        decoded++;
      } catch (XdsResourceException e) {
        assertThat(e.getMessage()).isNotBlank();
        rejected++;
      } catch (Throwable t) {
        fail("seed " + SEED + ", iteration " + done + ", " + type.shortName() + " bytes "
            + HexFormat.of().formatHex(bytes) + ": " + t, t);
      }
    }
    System.out.printf("fuzz seed %d: %d inputs, %d decoded, %d rejected%n", SEED, done, decoded, rejected);
    // The mutations must exercise both outcomes, or the fuzzer tests nothing.
    assertThat(decoded).as("decoded of %s", done).isPositive();
    assertThat(rejected).as("rejected of %s", done).isPositive();
  }

  /** One to three rounds of field and byte mutations of {@code seed}; the wire decoder's fuzz reuses it. */
  static byte[] mutate(Message seed, RandomGenerator random) {
    int rounds = 1 + random.nextInt(3);
    Message message = seed;
    byte[] bytes = null;
    for (int r = 0; r < rounds; r++) {
      if (bytes == null && random.nextInt(2) == 0) {
        message = mutateField(message, random, 0);
        continue;
      }
      if (bytes == null) {
        bytes = message.toByteArray();
      }
      bytes = mutateBytes(bytes, random);
    }
    return bytes == null ? message.toByteArray() : bytes;
  }

  private static byte[] mutateBytes(byte[] in, RandomGenerator random) {
    switch (random.nextInt(5)) {
      case 0: { // flip bytes
        byte[] out = in.clone();
        for (int k = 1 + random.nextInt(4); k > 0 && out.length > 0; k--) {
          out[random.nextInt(out.length)] ^= (byte) (1 + random.nextInt(255));
        }
        return out;
      }
      case 1: { // truncate
        return java.util.Arrays.copyOf(in, in.length == 0 ? 0 : random.nextInt(in.length));
      }
      case 2: { // splice with another seed
        byte[] other = SEEDS.get(random.nextInt(SEEDS.size())).toByteArray();
        int a = random.nextInt(in.length + 1);
        int b = random.nextInt(other.length + 1);
        byte[] out = new byte[a + other.length - b];
        System.arraycopy(in, 0, out, 0, a);
        System.arraycopy(other, b, out, a, other.length - b);
        return out;
      }
      case 3: { // insert random bytes
        int at = random.nextInt(in.length + 1);
        byte[] extra = new byte[1 + random.nextInt(8)];
        random.nextBytes(extra);
        byte[] out = new byte[in.length + extra.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(extra, 0, out, at, extra.length);
        System.arraycopy(in, at, out, at + extra.length, in.length - at);
        return out;
      }
      default: { // duplicate a slice (repeats fields, e.g. the same endpoint twice)
        if (in.length == 0) {
          return in;
        }
        int from = random.nextInt(in.length);
        int len = 1 + random.nextInt(in.length - from);
        byte[] out = new byte[in.length + len];
        System.arraycopy(in, 0, out, 0, in.length);
        System.arraycopy(in, from, out, in.length, len);
        return out;
      }
    }
  }

  /** Sets one field somewhere in the tree to a random or boundary value, through reflection. */
  private static Message mutateField(Message message, RandomGenerator random, int depth) {
    List<FieldDescriptor> fields = message.getDescriptorForType().getFields();
    if (fields.isEmpty()) {
      return message;
    }
    FieldDescriptor f = fields.get(random.nextInt(fields.size()));
    Message.Builder b = message.toBuilder();
    if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      if (f.isRepeated()) {
        int n = message.getRepeatedFieldCount(f);
        if (n > 0 && depth < 8 && random.nextInt(4) != 0) {
          int idx = random.nextInt(n);
          b.setRepeatedField(f, idx, mutateField((Message) message.getRepeatedField(f, idx), random, depth + 1));
        } else if (n > 0 && random.nextBoolean()) {
          b.addRepeatedField(f, message.getRepeatedField(f, random.nextInt(n)));
        } else {
          b.clearField(f);
        }
      } else if (depth < 8 && random.nextInt(5) != 0) {
        b.setField(f, mutateField((Message) message.getField(f), random, depth + 1));
      } else {
        b.clearField(f);
      }
      return b.build();
    }
    Object value = randomValue(f, random);
    if (f.isRepeated()) {
      b.addRepeatedField(f, value);
    } else {
      b.setField(f, value);
    }
    return b.build();
  }

  private static Object randomValue(FieldDescriptor f, RandomGenerator random) {
    long n = random.nextInt(3) == 0 ? random.nextLong() : NUMBERS[random.nextInt(NUMBERS.length)];
    switch (f.getJavaType()) {
      case INT:
        return (int) n;
      case LONG:
        return n;
      case FLOAT:
        return (float) n;
      case DOUBLE:
        return (double) n;
      case BOOLEAN:
        return random.nextBoolean();
      case STRING:
        return STRINGS[random.nextInt(STRINGS.length)];
      case BYTE_STRING:
        byte[] bytes = new byte[random.nextInt(6)];
        random.nextBytes(bytes);
        return ByteString.copyFrom(bytes);
      case ENUM:
        EnumDescriptor e = f.getEnumType();
        List<com.google.protobuf.Descriptors.EnumValueDescriptor> values = e.getValues();
        // Open enums: numbers outside the declared values must be survivable too.
        return random.nextInt(4) == 0
            ? e.findValueByNumberCreatingIfUnknown(random.nextInt(100))
            : values.get(random.nextInt(values.size()));
      default:
        throw new AssertionError(f.getJavaType());
    }
  }
}
