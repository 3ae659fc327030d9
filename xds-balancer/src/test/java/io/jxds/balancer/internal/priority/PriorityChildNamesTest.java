package io.jxds.balancer.internal.priority;

import static io.jxds.balancer.testing.Endpoints.endpoint;
import static io.jxds.balancer.testing.Endpoints.locality;
import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.balancer.internal.locality.LocalityGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sticky priority child names when one locality sits at more than one priority (Istio's failover
 * priorities put the same zone at several priorities, each time with other endpoints).
 */
class PriorityChildNamesTest {
  private final PriorityChildNames names = new PriorityChildNames();

  private List<String> assign(LocalityGroup... priorities) {
    return names.assign("c", List.of(priorities));
  }

  // zone x at priority 0 (endpoints 1, 2) and at priority 1 (endpoints 3, 4)
  private static final LocalityGroup XY = LocalityGroup.of(
      locality("x", 1, endpoint(1), endpoint(2)), locality("y", 1, endpoint(5)));
  private static final LocalityGroup XY_CHANGED = LocalityGroup.of(
      locality("x", 1, endpoint(1), endpoint(9)), locality("y", 1, endpoint(5), endpoint(6)));
  private static final LocalityGroup X_OTHER_Z = LocalityGroup.of(
      locality("x", 1, endpoint(3), endpoint(4)), locality("z", 1, endpoint(7)));
  private static final LocalityGroup X_OTHER = LocalityGroup.of(
      locality("x", 1, endpoint(3), endpoint(4)));
  private static final LocalityGroup X = LocalityGroup.of(locality("x", 1, endpoint(1)));
  private static final LocalityGroup Z = LocalityGroup.of(locality("z", 1, endpoint(7)));

  @Test
  void updateTouchingOnlyPriorityZeroKeepsBothNames() {
    assertThat(assign(XY, X_OTHER_Z)).containsExactly("c[child1]", "c[child2]");

    assertThat(assign(XY_CHANGED, X_OTHER_Z)).containsExactly("c[child1]", "c[child2]");
    assertThat(assign(XY, X_OTHER_Z)).containsExactly("c[child1]", "c[child2]");
  }

  @Test
  void lowerPriorityWhoseOnlyLocalityIsSharedKeepsItsName() {
    assertThat(assign(XY, X_OTHER)).containsExactly("c[child1]", "c[child2]");

    assertThat(assign(XY_CHANGED, X_OTHER)).containsExactly("c[child1]", "c[child2]");
    assertThat(assign(XY_CHANGED, X_OTHER)).containsExactly("c[child1]", "c[child2]");
  }

  @Test
  void renumberedPriorityKeepsItsNameWhenItsLocalityWasAlsoAtTheRemovedPriority() {
    assign(XY, X_OTHER_Z);

    // Priority 0 is gone; the old priority 1 moves up. Both old children share zone x with it,
    // but only c[child2] shares zone z and x's endpoints.
    assertThat(assign(X_OTHER_Z)).containsExactly("c[child2]");
  }

  @Test
  void renumberedPriorityIsToldApartByItsEndpointsWhenOnlyTheSharedLocalityRemains() {
    assign(XY, X_OTHER);

    assertThat(assign(X_OTHER)).containsExactly("c[child2]");
  }

  @Test
  void swappedPrioritiesSwapNames() {
    assign(XY, X_OTHER_Z);

    assertThat(assign(X_OTHER_Z, XY)).containsExactly("c[child2]", "c[child1]");
  }

  @Test
  void oneLocalityAtTwoPrioritiesNeverGivesTwoPrioritiesOneName() {
    assign(X, X_OTHER);

    List<String> next = assign(X_OTHER, X, X_OTHER_Z);

    assertThat(next).doesNotHaveDuplicates();
    assertThat(next).containsExactly("c[child2]", "c[child1]", "c[child3]");
  }

  @Test
  void tiesGoToTheChildThatWasTheHigherPriority() {
    // Same locality, same endpoints at both priorities: nothing tells the children apart.
    assign(X, X);

    assertThat(assign(X)).containsExactly("c[child1]");
  }

  @Test
  void moreLocalitiesSharedWinsOverEarlierLocalityOrder() {
    assign(XY, Z);
    // The new priority lists x first, but shares x and y with c[child1] and only z with
    // c[child2]; the new lower priority takes what is left.
    assertThat(assign(
        LocalityGroup.of(locality("z", 1, endpoint(7)), locality("x", 1, endpoint(1)),
            locality("y", 1, endpoint(5))),
        LocalityGroup.of(locality("z", 1, endpoint(8)))))
        .containsExactly("c[child1]", "c[child2]");
  }

  @Test
  void aPriorityWithNoLocalityInCommonGetsANewNameAndDroppedNamesAreNotReused() {
    assign(XY, Z);
    assertThat(assign(Z)).containsExactly("c[child2]");
    assertThat(assign(XY, Z)).containsExactly("c[child3]", "c[child2]");
  }
}
