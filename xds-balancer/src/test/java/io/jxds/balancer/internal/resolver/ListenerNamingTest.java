package io.jxds.balancer.internal.resolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.grpc.StatusOr;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** gRFC A27 and A47: from a target to the listener resource name. */
class ListenerNamingTest {
  @Test
  void aTargetWithoutAuthorityNamesItsListenerByThePath() {
    ListenerTarget target = ListenerTarget.parse(URI.create("xds:///payments.prod:8080"));

    assertThat(target.authority()).isEmpty();
    assertThat(ListenerNaming.DEFAULT.listenerName(target).getValue()).isEqualTo("payments.prod:8080");
    assertThat(target.defaultServiceAuthority()).isEqualTo("payments.prod:8080");
  }

  @Test
  void thePathIsPercentDecodedAndTheAuthorityEscapesASlash() {
    ListenerTarget target = ListenerTarget.parse(URI.create("jxds:///a%20b/c"));

    assertThat(target.name()).isEqualTo("a b/c");
    assertThat(target.defaultServiceAuthority()).isEqualTo("a%20b%2Fc");
  }

  @Test
  void theDefaultTemplateReplacesEveryPlaceholder() {
    ListenerNaming naming = new ListenerNaming("grpc/server?name=%s&again=%s", Map.of());

    assertThat(naming.listenerName(ListenerTarget.parse(URI.create("xds:///svc"))).getValue())
        .isEqualTo("grpc/server?name=svc&again=svc");
  }

  @Test
  void anXdstpTemplateEncodesEachPathSegmentOfTheName() {
    ListenerNaming naming = new ListenerNaming(
        "xdstp://td.example/envoy.config.listener.v3.Listener/%s", Map.of());

    assertThat(naming.listenerName(ListenerTarget.parse(URI.create("xds:///a%20b/c:1@x"))).getValue())
        .isEqualTo("xdstp://td.example/envoy.config.listener.v3.Listener/a%20b/c:1@x");
  }

  @Test
  void anAuthorityUsesItsOwnTemplateOrA47sDefault() {
    ListenerNaming naming = new ListenerNaming("%s", Map.of(
        "custom.example", "xdstp://custom.example/envoy.config.listener.v3.Listener/grpc/%s",
        "plain.example", ""));

    assertThat(naming.listenerName(ListenerTarget.parse(URI.create("xds://custom.example/svc"))).getValue())
        .isEqualTo("xdstp://custom.example/envoy.config.listener.v3.Listener/grpc/svc");
    assertThat(naming.listenerName(ListenerTarget.parse(URI.create("xds://plain.example/svc"))).getValue())
        .isEqualTo("xdstp://plain.example/envoy.config.listener.v3.Listener/svc");
  }

  @Test
  void anAuthorityTheBootstrapLacksIsInvalidArgument() {
    StatusOr<String> name = ListenerNaming.DEFAULT.listenerName(
        ListenerTarget.parse(URI.create("xds://unknown.example/svc")));

    assertThat(name.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(name.getStatus().getDescription()).isEqualTo("invalid target xds://unknown.example/svc:"
        + " target authority unknown.example is not in the bootstrap's authorities");
  }

  @Test
  void anXdstpNameThatIsNotAListenerIsInvalidArgument() {
    ListenerNaming naming = new ListenerNaming("xdstp://td.example/envoy.config.cluster.v3.Cluster/%s", Map.of());

    StatusOr<String> name = naming.listenerName(ListenerTarget.parse(URI.create("xds:///svc")));

    assertThat(name.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(name.getStatus().getDescription())
        .contains("is not an xdstp: URI of a envoy.config.listener.v3.Listener");
  }

  @Test
  void aTargetWithoutANameOrWithAQueryIsRefused() {
    assertThatThrownBy(() -> ListenerTarget.parse(URI.create("xds:///")))
        .hasMessage("target xds:///: the listener name is empty");
    assertThatThrownBy(() -> ListenerTarget.parse(URI.create("xds:///svc?x=1")))
        .hasMessageContaining("a listener target has no query or fragment");
  }

  @Test
  void aBootstrapGivesItsDefaultTemplateAndEachAuthoritysOrA47sDefault() throws Exception {
    ListenerNaming naming = ListenerNaming.of(io.jxds.client.internal.bootstrap.BootstrapParser.parse("""
        {"xds_servers": [{"server_uri": "a:1", "channel_creds": [{"type": "insecure"}]}],
         "client_default_listener_resource_name_template": "xds.example.com/listeners/%s",
         "authorities": {"td.example": {}, "custom.example":
           {"client_listener_resource_name_template": "xdstp://custom.example/envoy.config.listener.v3.Listener/g/%s"}}}
        """, "test"));

    assertThat(naming.listenerName(ListenerTarget.parse(URI.create("xds:///svc"))).getValue())
        .isEqualTo("xds.example.com/listeners/svc");
    assertThat(naming.listenerName(ListenerTarget.parse(URI.create("xds://td.example/svc"))).getValue())
        .isEqualTo("xdstp://td.example/envoy.config.listener.v3.Listener/svc");
    assertThat(naming.listenerName(ListenerTarget.parse(URI.create("xds://custom.example/svc"))).getValue())
        .isEqualTo("xdstp://custom.example/envoy.config.listener.v3.Listener/g/svc");
  }
}
