package io.jxds.benchmarks;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.jxds.api.ResourceTypes;
import io.jxds.api.XdsResourceException;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.decode.EndpointsDecoder;
import io.jxds.api.model.EndpointsUpdate;
import io.jxds.testing.EndpointsBuilder;
import io.jxds.testing.XdsResources;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding a large ClusterLoadAssignment (10 000 endpoints in 100 localities over 3 priorities)
 * against protobuf's bare {@code parseFrom} of the same bytes, in the same run. The target (docs/benchmarks.md):
 * {@link #decode} (parse + validate + model, here read from the bytes in one pass) takes at most
 * 1.5× {@link #parse}; {@link #decodeTree} is the former way, parse then walk the tree.
 *
 * <pre>
 * mvn -B -q package -DskipTests -pl benchmarks -am
 * java -jar benchmarks/target/benchmarks.jar DecodeBenchmark -f 1 -wi 5 -i 10 -w 1 -r 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DecodeBenchmark {
  static final int LOCALITIES = 100;
  static final int ENDPOINTS_PER_LOCALITY = 100;
  static final int PRIORITIES = 3;

  byte[] claBytes;
  ByteString claByteString;
  byte[] anyBytes;

  @Setup
  public void setUp() {
    ClusterLoadAssignment cla = largeAssignment();
    claBytes = cla.toByteArray();
    claByteString = UnsafeByteOperations.unsafeWrap(claBytes); // no copy, as parse reads claBytes
    anyBytes = Any.pack(cla).toByteArray();
  }

  /** The baseline: protobuf parsing alone. */
  @Benchmark
  public ClusterLoadAssignment parse() throws InvalidProtocolBufferException {
    return ClusterLoadAssignment.parseFrom(claBytes);
  }

  /**
   * A control, not a target: parse, then only read each endpoint's address and port. What this
   * adds to {@link #parse} is the cost of bringing the parsed tree (about 8 MB) back into the
   * cache, which any consumer of the parsed message pays; {@link #decode} pays it too.
   */
  @Benchmark
  public long parseAndWalk() throws InvalidProtocolBufferException {
    ClusterLoadAssignment cla = ClusterLoadAssignment.parseFrom(claBytes);
    long sum = 0;
    for (int i = 0; i < cla.getEndpointsCount(); i++) {
      LocalityLbEndpoints locality = cla.getEndpoints(i);
      for (int j = 0; j < locality.getLbEndpointsCount(); j++) {
        SocketAddress socket = locality.getLbEndpoints(j).getEndpoint().getAddress().getSocketAddress();
        sum += socket.getAddress().length() + socket.getPortValue();
      }
    }
    return sum;
  }

  /**
   * Validate every rule and build the model from the same bytes: the one-pass wire reader (what
   * {@code ResourceTypes.ENDPOINTS} uses), which never builds the proto tree.
   */
  @Benchmark
  public EndpointsUpdate decode() throws XdsResourceException {
    return EndpointsDecoder.decode(claByteString);
  }

  /** The tree way, for comparison: {@code parseFrom}, then validate the tree into the model. */
  @Benchmark
  public EndpointsUpdate decodeTree() throws InvalidProtocolBufferException, XdsResourceException {
    return EndpointsDecoder.decode(ClusterLoadAssignment.parseFrom(claBytes));
  }

  /** What the client does per resource: parse the Any, check its type URL, unpack, decode. */
  @Benchmark
  public EndpointsUpdate unpackAndDecode() throws InvalidProtocolBufferException, XdsResourceException {
    return ResourceDecoding.unpack(ResourceTypes.ENDPOINTS, Any.parseFrom(anyBytes)).decode();
  }

  /**
   * 100 localities of 100 endpoints; locality {@code l} has priority {@code l % 3}. Endpoints are
   * IPv4 {@code 10.l.(e/250).(e%250+1)} with every tenth one IPv6, mixed weights and health.
   */
  static ClusterLoadAssignment largeAssignment() {
    EndpointsBuilder b = XdsResources.endpoints("bench-eds");
    for (int l = 0; l < LOCALITIES; l++) {
      int locality = l;
      b.locality("region-" + (l % 4), "zone-" + l, "", spec -> {
        spec.priority(locality % PRIORITIES).weight(1 + locality % 7);
        for (int e = 0; e < ENDPOINTS_PER_LOCALITY; e++) {
          String ip =
              e % 10 == 9
                  ? "2001:db8:" + Integer.toHexString(locality) + "::" + Integer.toHexString(e + 1)
                  : "10." + locality + "." + (e / 250) + "." + (e % 250 + 1);
          HealthStatus health = e % 17 == 0 ? HealthStatus.DRAINING : HealthStatus.HEALTHY;
          if (e % 3 == 0) {
            spec.endpoint(ip, 8080, health);
          } else {
            spec.endpoint(ip, 8080, health, 1 + e % 5);
          }
        }
      });
    }
    b.drop("throttle", 5, io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.HUNDRED);
    return b.build();
  }
}
