package io.jxds.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jxds.examples.Topology.EndpointInfo;
import io.jxds.examples.Topology.LocalityInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableRendererTest {
  private static final Topology TOPOLOGY = new Topology(List.of(
      new LocalityInfo("zone-a", 0, List.of(new EndpointInfo("a1", "h:1"), new EndpointInfo("a2", "h:2"))),
      new LocalityInfo("zone-b", 0, List.of(new EndpointInfo("b1", "h:3"))),
      new LocalityInfo("zone-c", 0, List.of(new EndpointInfo("c1", "h:4"), new EndpointInfo("c2", "h:5"))),
      new LocalityInfo("zone-d", 1, List.of(new EndpointInfo("d1", "h:6"), new EndpointInfo("d2", "h:7"))),
      new LocalityInfo("zone-e", 2, List.of(new EndpointInfo("e1", "h:8")))));
  private final TableRenderer renderer = new TableRenderer();

  @Test
  void rowShowsSharesOfAnsweredRpcsRateFailuresAndDrops() {
    // 2 s: 300 answered (a1 75, a2 75, c1 150), 80 failed, 20 dropped.
    TrafficStats.Window w = new TrafficStats.Window(2.0, Map.of("h:1", 75L, "h:2", 75L, "h:4", 150L), 80, 20);

    String row = renderer.row(12, "3", new Shares(TOPOLOGY, w));

    assertThat(row).isEqualTo(" 12s    3  50  25  25    0   0       50  50   0    0   0   0    200  20.0   5.0");
  }

  @Test
  void everyLineFitsEightyColumnsEvenWithLongNamesAndManyLocalities() {
    Topology wide = new Topology(List.of(new LocalityInfo("a-very-long-zone-name-indeed", 12,
        List.of(new EndpointInfo("endpoint-one", "h:1"), new EndpointInfo("endpoint-two", "h:2")))));
    TrafficStats.Window w = new TrafficStats.Window(1.0, Map.of("h:1", 99_999L), 0, 0);

    assertThat(renderer.header(TOPOLOGY)).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(renderer.header(wide)).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(renderer.row(999, "12345", new Shares(TOPOLOGY, w)).length()).isLessThanOrEqualTo(80);
  }

  @Test
  void noAnsweredRpcsShowDashesNotZeroes() {
    TrafficStats.Window w = new TrafficStats.Window(1.0, Map.of(), 1500, 0);

    assertThat(renderer.row(5, "7", new Shares(TOPOLOGY, w))).startsWith("  5s    7   -   -   -")
        .endsWith("1500 100.0   0.0");
  }

  @Test
  void longAnnouncementsWrapWithTheirIndent() {
    List<String> lines = DemoScript.wrap("    " + "word ".repeat(30).strip(), 40);

    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(40));
    assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).startsWith("      word"));
  }
}
