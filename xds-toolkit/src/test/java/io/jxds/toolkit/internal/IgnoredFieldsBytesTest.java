package io.jxds.toolkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.jxds.api.ResourceTypes;
import io.jxds.toolkit.Snapshot;
import io.jxds.toolkit.XdsResource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The ignored fields read off the wire bytes are the ones the parse-and-walk finds. */
class IgnoredFieldsBytesTest {
  @Test
  void everyRuleAloneAndInRandomMixesMatchesTheWalk() throws Exception {
    SplittableRandom random = new SplittableRandom(25);
    for (Map.Entry<String, List<IgnoredFields.Rule>> e : IgnoredFields.RULES.entrySet()) {
      Descriptor root = IgnoredFields.root(e.getKey());
      List<IgnoredFields.Rule> rules = e.getValue();
      for (IgnoredFields.Rule rule : rules) {
        Message.Builder b = DynamicMessage.newBuilder(root);
        set(b, rule.path().split("\\."), 0, 1 + random.nextInt(3));
        assertSame(e.getKey(), reparse(e.getKey(), b.build()), 1);
      }
      for (int round = 0; round < 200; round++) {
        Message.Builder b = DynamicMessage.newBuilder(root);
        for (IgnoredFields.Rule rule : rules) {
          if (random.nextBoolean()) {
            set(b, rule.path().split("\\."), 0, 1 + random.nextInt(3));
          }
        }
        assertSame(e.getKey(), reparse(e.getKey(), b.build()), -1);
      }
    }
  }

  @Test
  void everyExampleAndGoldenResourceMatchesTheWalk() throws Exception {
    Path resources = Path.of(getClass().getResource("/examples/before.json").toURI()).getParent().getParent();
    for (String file : List.of("examples/before.json", "examples/after.json", "golden/generated.json",
        "golden/policies.json")) {
      for (XdsResource r : Snapshot.read(resources.resolve(file)).resources()) {
        Message m = reparse(r.typeUrl(), r.any());
        if (m != null) {
          assertSame(r.typeUrl(), m, -1);
        }
      }
    }
  }

  @Test
  void aMessageGivenTwiceOrTwoMembersOfAOneofAreLeftToTheWalk() {
    ClusterLoadAssignment policy = ClusterLoadAssignment.newBuilder().setPolicy(ClusterLoadAssignment.Policy
        .newBuilder().setWeightedPriorityHealth(true)).build();
    ByteString twice = policy.toByteString().concat(policy.toByteString());
    assertThat(IgnoredFields.ofBytes(ResourceTypes.ENDPOINTS_TYPE_URL, twice)).isNull();

    LbEndpoint both = LbEndpoint.newBuilder().setEndpoint(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder()
        .setHealthCheckConfig(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.HealthCheckConfig.newBuilder()
            .setPortValue(1))).build();
    ByteString withName = both.toByteString().concat(LbEndpoint.newBuilder().setEndpointName("n").build()
        .toByteString());
    ByteString cla = ClusterLoadAssignment.newBuilder().addEndpoints(
        io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints.newBuilder()).build().toByteString();
    // endpoints[0].lb_endpoints[0] = endpoint then endpoint_name: field 2 of LocalityLbEndpoints, field 1 of CLA.
    ByteString locality = ByteString.copyFrom(new byte[] {0x12, (byte) withName.size()}).concat(withName);
    ByteString bytes = cla.concat(ByteString.copyFrom(new byte[] {0x12, (byte) locality.size()})).concat(locality);
    assertThat(IgnoredFields.ofBytes(ResourceTypes.ENDPOINTS_TYPE_URL, bytes)).isNull();
  }

  private static void assertSame(String typeUrl, Message m, int expectedRules) {
    var fromBytes = IgnoredFields.ofBytes(typeUrl, m.toByteString());
    assertThat(fromBytes).as("%s", m).isEqualTo(IgnoredFields.of(typeUrl, m));
    if (expectedRules >= 0) {
      assertThat(fromBytes).as("%s", m).hasSize(expectedRules);
    }
  }

  private static Message reparse(String typeUrl, Message m) throws Exception {
    ByteString bytes = m instanceof Any a ? a.getValue() : m.toByteString();
    if (typeUrl.equals(ResourceTypes.CLUSTER_TYPE_URL)) {
      return Cluster.parseFrom(bytes);
    }
    if (typeUrl.equals(ResourceTypes.ENDPOINTS_TYPE_URL)) {
      return ClusterLoadAssignment.parseFrom(bytes);
    }
    return null;
  }

  /** Sets the path from segment i on: a repeated field gets {@code copies} elements, the last of them set. */
  private static void set(Message.Builder b, String[] path, int i, int copies) {
    String name = path[i].replace("[]", "");
    FieldDescriptor f = b.getDescriptorForType().findFieldByName(name);
    boolean last = i == path.length - 1;
    if (last) {
      Object value = switch (f.getJavaType()) {
        case MESSAGE -> b.newBuilderForField(f).build();
        case BOOLEAN -> true;
        case ENUM -> f.getEnumType().getValues().get(1);
        default -> throw new IllegalStateException(f.getFullName());
      };
      if (f.isRepeated()) {
        b.addRepeatedField(f, value);
      } else {
        b.setField(f, value);
      }
      return;
    }
    if (f.isRepeated()) {
      List<Message> elements = new ArrayList<>();
      for (int k = 0; k < b.getRepeatedFieldCount(f); k++) {
        elements.add((Message) b.getRepeatedField(f, k));
      }
      b.clearField(f);
      for (int k = 0; k < Math.max(copies, elements.size()); k++) {
        Message.Builder child = k < elements.size() ? elements.get(k).toBuilder() : b.newBuilderForField(f);
        if (k == copies - 1 || k % 2 == 1) {
          set(child, path, i + 1, copies);
        }
        b.addRepeatedField(f, child.build());
      }
    } else {
      Message.Builder child = b.hasField(f) ? ((Message) b.getField(f)).toBuilder() : b.newBuilderForField(f);
      set(child, path, i + 1, copies);
      b.setField(f, child.build());
    }
  }
}
