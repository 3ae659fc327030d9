package io.jxds.balancer.internal.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.jxds.api.ResourceTypes;
import io.jxds.api.model.AggregateCluster;
import io.jxds.api.model.ClusterUpdate;
import io.jxds.api.testing.FakeXdsClient;
import io.jxds.testing.FakeLbHelper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resolving an aggregate cluster's tree (gRFC A37): levels, order, duplicates, loops, depth, absence. */
class AggregateTreeTest {
  private final FakeLbHelper helper = new FakeLbHelper();
  private final FakeXdsClient xds = new FakeXdsClient("test-node");
  private int changes;
  private final AggregateTree tree = new AggregateTree(xds, helper.getSynchronizationContext(), () -> changes++);

  @Test
  void everyClusterOfALevelIsWatchedInOnePass() {
    AggregateTree.Resolution r = resolveOnce("global", "a", "b", "c");

    assertThat(r).isEqualTo(new AggregateTree.Pending(List.of("a", "b", "c")));
    assertThat(tree.watched()).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(xds.activeWatchCount(ResourceTypes.CLUSTER)).isEqualTo(3);
  }

  @Test
  void nestedAggregatesFlattenDepthFirstKeepingTheFirstPosition() {
    eds("a");
    eds("b");
    eds("c");
    aggregate("mid", "b", "a", "c");

    // A37's example shape: global -> [a, mid, a], mid -> [b, a, c]: a, then b and c in mid's order.
    assertThat(leafNames(resolve("global", "a", "mid", "a"))).containsExactly("a", "b", "c");
  }

  @Test
  void secondLevelIsWatchedOnceTheFirstAnswers() {
    resolveOnce("global", "a", "mid");
    eds("a");
    aggregate("mid", "x", "y");

    AggregateTree.Resolution r = resolveOnce("global", "a", "mid");

    assertThat(r).isEqualTo(new AggregateTree.Pending(List.of("x", "y")));
    assertThat(tree.watched()).containsExactlyInAnyOrder("a", "mid", "x", "y");
  }

  @Test
  void loopFailsNamingThePath() {
    aggregate("mid", "inner");
    aggregate("inner", "a", "mid");
    eds("a");

    AggregateTree.Resolution r = resolve("global", "mid");

    assertThat(r).isInstanceOf(AggregateTree.Failed.class);
    Status status = ((AggregateTree.Failed) r).status();
    assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(status.getDescription()).isEqualTo("aggregate cluster loop: global -> mid -> inner -> mid");
  }

  @Test
  void loopBackToTheRootFails() {
    aggregate("mid", "global");

    assertThat(((AggregateTree.Failed) resolve("global", "mid")).status().getDescription())
        .isEqualTo("aggregate cluster loop: global -> mid -> global");
  }

  @Test
  void sixteenClustersDeepIsAcceptedSeventeenIsNot() {
    // global (1) -> c2 -> ... -> c15 -> leaf (16 clusters on the path): gRFC A37's limit.
    for (int i = 2; i < 15; i++) {
      aggregate("c" + i, "c" + (i + 1));
    }
    aggregate("c15", "leaf");
    eds("leaf");
    assertThat(leafNames(resolve("global", "c2"))).containsExactly("leaf");

    aggregate("c15", "c16");
    aggregate("c16", "leaf");
    AggregateTree.Resolution r = resolve("global", "c2");

    assertThat(r).isInstanceOf(AggregateTree.Failed.class);
    assertThat(((AggregateTree.Failed) r).status().getDescription())
        .startsWith("aggregate cluster tree deeper than 16 clusters: global -> c2 -> c3")
        .endsWith("c15 -> c16 -> leaf");
  }

  @Test
  void missingClusterStaysALeafThatFails() {
    eds("a");
    resolve("global", "a", "gone");
    helper.run(() -> xds.activeWatch(ResourceTypes.CLUSTER, "gone").doesNotExist());

    List<AggregateTree.Leaf> leaves = ((AggregateTree.Leaves) resolve("global", "a", "gone")).leaves();

    assertThat(leaves.get(0).cluster()).isPresent();
    assertThat(leaves.get(1).name()).isEqualTo("gone");
    assertThat(leaves.get(1).cluster()).isEmpty();
    assertThat(leaves.get(1).failure().getDescription()).isEqualTo("cluster gone does not exist (node id test-node)");
  }

  @Test
  void errorBeforeDataIsALeafThatFailsButErrorAfterDataKeepsTheData() {
    eds("a");
    resolve("global", "a", "b");
    helper.run(() -> xds.activeWatch(ResourceTypes.CLUSTER, "b").error(Status.UNAVAILABLE.withDescription("NACKed")));
    assertThat(((AggregateTree.Leaves) resolve("global", "a", "b")).leaves().get(1).failure().getDescription())
        .isEqualTo("cluster b: NACKed");

    helper.run(() -> xds.activeWatch(ResourceTypes.CLUSTER, "a").error(Status.UNAVAILABLE.withDescription("x")));
    assertThat(((AggregateTree.Leaves) resolve("global", "a", "b")).leaves().get(0).cluster()).isPresent();
  }

  @Test
  void clustersNoLongerReachedAreUnwatched() {
    aggregate("mid", "x", "y");
    eds("x");
    eds("y");
    resolve("global", "mid");
    assertThat(tree.watched()).containsExactlyInAnyOrder("mid", "x", "y");

    eds("mid");
    assertThat(leafNames(resolve("global", "mid"))).containsExactly("mid");

    assertThat(tree.watched()).containsExactly("mid");
    assertThat(xds.activeWatchCount(ResourceTypes.CLUSTER)).isEqualTo(1);
  }

  @Test
  void answersAreReported() {
    resolve("global", "a");
    int before = changes;

    eds("a");

    assertThat(changes).isEqualTo(before + 1);
  }

  /** One pass; answers to watches it starts arrive after it, as from a real client. */
  private AggregateTree.Resolution resolveOnce(String root, String... children) {
    AggregateTree.Resolution[] out = new AggregateTree.Resolution[1];
    helper.run(() -> out[0] = tree.resolve(root, List.of(children)));
    return out[0];
  }

  /** Passes until no answer comes in between, as the balancer resolves again on each answer. */
  private AggregateTree.Resolution resolve(String root, String... children) {
    while (true) {
      int before = changes;
      AggregateTree.Resolution r = resolveOnce(root, children);
      if (changes == before) {
        return r;
      }
    }
  }

  private static List<String> leafNames(AggregateTree.Resolution r) {
    assertThat(r).isInstanceOf(AggregateTree.Leaves.class);
    List<String> names = new ArrayList<>();
    for (AggregateTree.Leaf leaf : ((AggregateTree.Leaves) r).leaves()) {
      names.add(leaf.name());
    }
    return names;
  }

  private void eds(String name) {
    helper.run(() -> xds.setResource(ResourceTypes.CLUSTER, name, ClusterUpdate.of(name, name)));
  }

  private void aggregate(String name, String... clusters) {
    helper.run(() -> xds.setResource(ResourceTypes.CLUSTER, name,
        ClusterUpdate.aggregate(name, new AggregateCluster(List.of(clusters)))));
  }

}
