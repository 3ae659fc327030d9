package io.jxds.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** gRFC A47's canonical {@code xdstp:} names. */
class XdstpNameTest {
  private static final String CDS_URL = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  private static final String CDS = "xdstp://a.example/envoy.config.cluster.v3.Cluster/";

  @Test
  void queryParametersAreSorted() {
    assertThat(XdstpName.canonical(CDS + "x/y?z=1&a=2&m=3", CDS_URL)).isEqualTo(CDS + "x/y?a=2&m=3&z=1");
  }

  @Test
  void aNameWithoutOrWithOneParameterIsItself() {
    String plain = CDS + "x";
    String one = CDS + "x?b=1";
    assertThat(XdstpName.canonical(plain, CDS_URL)).isSameAs(plain);
    assertThat(XdstpName.canonical(one, CDS_URL)).isSameAs(one);
  }

  @Test
  void authorityIsBetweenTheSchemeAndTheNextSlash() {
    assertThat(XdstpName.authority(CDS + "x")).isEqualTo("a.example");
    assertThat(XdstpName.authority("xdstp:///envoy.config.cluster.v3.Cluster/x")).isEmpty();
  }

  @Test
  void validPercentEscapesPass() {
    assertThat(XdstpName.canonical(CDS + "a%2Fb%3a", CDS_URL)).isEqualTo(CDS + "a%2Fb%3a");
  }

  @Test
  void badNamesAreRefusedNamingTheProblem() {
    assertThatThrownBy(() -> XdstpName.canonical(CDS + "a%2", CDS_URL))
        .hasMessage("bad percent-escape \"%2\" at index " + (CDS.length() + 1));
    assertThatThrownBy(() -> XdstpName.canonical(CDS + "a%G1", CDS_URL)).hasMessageContaining("\"%G1\"");
    assertThatThrownBy(() -> XdstpName.canonical("xdstp://a.example/envoy.config.listener.v3.Listener/x", CDS_URL))
        .hasMessage("resource type \"envoy.config.listener.v3.Listener\" is not envoy.config.cluster.v3.Cluster");
    assertThatThrownBy(() -> XdstpName.canonical("xdstp://a.example", CDS_URL))
        .hasMessage("no resource type after the authority");
    assertThatThrownBy(() -> XdstpName.canonical("xdstp://a.example/envoy.config.cluster.v3.Cluster", CDS_URL))
        .hasMessage("no resource id after the resource type");
    assertThatThrownBy(() -> XdstpName.canonical(CDS + "x#frag", CDS_URL)).hasMessageContaining("fragment");
  }

  @Test
  void receivedNamesThatCannotBeCanonicalStayAsTheyAre() {
    assertThat(XdstpName.canonicalOrSelf("plain?b=1&a=2", CDS_URL)).isEqualTo("plain?b=1&a=2");
    assertThat(XdstpName.canonicalOrSelf(CDS + "x?b=1&a=2", CDS_URL)).isEqualTo(CDS + "x?a=2&b=1");
    assertThat(XdstpName.canonicalOrSelf(CDS + "x%zz?b=1&a=2", CDS_URL)).isEqualTo(CDS + "x%zz?b=1&a=2");
  }
}
