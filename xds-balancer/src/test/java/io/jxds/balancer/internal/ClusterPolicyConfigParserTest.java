package io.jxds.balancer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.NameResolver.ConfigOrError;
import io.grpc.Status;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterPolicyConfigParserTest {
  @Test
  void onlyClusterIsRequiredAndTimersDefault() {
    ConfigOrError parsed = ClusterPolicyConfigParser.parse(Map.of("cluster", "payments"));

    assertThat(parsed.getConfig())
        .isEqualTo(new ClusterPolicyConfig("payments", Duration.ofSeconds(10), Duration.ofMinutes(15)));
  }

  @Test
  void timersAreReadFromDurationStrings() {
    ConfigOrError parsed = ClusterPolicyConfigParser.parse(
        Map.of("cluster", "payments", "failoverTimeout", "2s", "childRetention", "1.5m"));

    assertThat(parsed.getConfig())
        .isEqualTo(new ClusterPolicyConfig("payments", Duration.ofSeconds(2), Duration.ofSeconds(90)));
  }

  @Test
  void hashHeaderIsReadAndLowerCased() {
    ConfigOrError parsed = ClusterPolicyConfigParser.parse(Map.of("cluster", "carts", "hashHeader", "X-User-Id"));

    assertThat(parsed.getConfig()).isEqualTo(
        new ClusterPolicyConfig("carts", Duration.ofSeconds(10), Duration.ofMinutes(15), "x-user-id"));
    assertThat(((ClusterPolicyConfig) ClusterPolicyConfigParser.parse(Map.of("cluster", "c")).getConfig())
        .hashHeader()).isEmpty();
  }

  @Test
  void hashHeaderThatIsNoHeaderNameIsInvalidArgument() {
    assertInvalid(Map.of("cluster", "c", "hashHeader", 1.0),
        "\"hashHeader\" must be a header name string such as \"x-user-id\", got number 1.0");
    String legal =
        "\"hashHeader\" must be a legal ASCII header name not starting with \":\" or ending in \"-bin\", got ";
    assertInvalid(Map.of("cluster", "c", "hashHeader", "user id"), legal + "\"user id\"");
    assertInvalid(Map.of("cluster", "c", "hashHeader", ":path"), legal + "\":path\"");
    assertInvalid(Map.of("cluster", "c", "hashHeader", "token-bin"), legal + "\"token-bin\"");
  }

  @Test
  void unknownFieldsAreIgnored() {
    ConfigOrError parsed = ClusterPolicyConfigParser.parse(Map.of("cluster", "payments", "future", true));

    assertThat(parsed.getError()).isNull();
  }

  @Test
  void missingClusterIsInvalidArgumentNamingTheField() {
    assertInvalid(Map.of("failoverTimeout", "2s"), "\"cluster\" is required");
  }

  @Test
  void emptyClusterIsInvalidArgument() {
    assertInvalid(Map.of("cluster", ""), "\"cluster\" must not be empty");
  }

  @Test
  void clusterOfTheWrongJsonTypeIsInvalidArgument() {
    assertInvalid(Map.of("cluster", 42.0), "\"cluster\" must be a string, got number 42.0");
    assertInvalid(Map.of("cluster", List.of("a")), "\"cluster\" must be a string, got a list");
  }

  @Test
  void durationOfTheWrongJsonTypeIsInvalidArgument() {
    assertInvalid(Map.of("cluster", "c", "failoverTimeout", 10.0),
        "\"failoverTimeout\" must be a duration string such as \"2s\", got number 10.0");
  }

  @Test
  void malformedDurationIsInvalidArgumentNamingTheField() {
    assertInvalid(Map.of("cluster", "c", "childRetention", "soon"), "\"childRetention\": \"soon\" is not a duration");
    assertInvalid(Map.of("cluster", "c", "failoverTimeout", "-2s"), "\"failoverTimeout\": \"-2s\" is not a duration");
    assertInvalid(Map.of("cluster", "c", "failoverTimeout", "s"), "\"failoverTimeout\"");
  }

  @Test
  void zeroFailoverTimeoutIsInvalidArgument() {
    assertInvalid(Map.of("cluster", "c", "failoverTimeout", "0s"), "\"failoverTimeout\" must be positive");
  }

  @Test
  void absurdDurationIsInvalidArgument() {
    assertInvalid(Map.of("cluster", "c", "childRetention", "99999999999h"),
        "\"childRetention\": \"99999999999h\" is too long");
  }

  @Test
  void nullConfigIsInvalidArgument() {
    Map<String, Object> none = null;
    assertThat(ClusterPolicyConfigParser.parse(none).getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
  }

  @Test
  void explicitJsonNullMeansDefault() {
    Map<String, Object> json = new HashMap<>();
    json.put("cluster", "c");
    json.put("failoverTimeout", null);

    assertThat(((ClusterPolicyConfig) ClusterPolicyConfigParser.parse(json).getConfig()).failoverTimeout())
        .isEqualTo(Duration.ofSeconds(10));
  }

  private static void assertInvalid(Map<String, ?> json, String fragment) {
    ConfigOrError parsed = ClusterPolicyConfigParser.parse(json);
    assertThat(parsed.getError()).as("error for %s", json).isNotNull();
    assertThat(parsed.getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(parsed.getError().getDescription()).startsWith("xds_cluster config: ").contains(fragment);
  }
}
