package io.jxds.client;

import static io.jxds.api.ResourceTypes.CLUSTER_TYPE_URL;
import static io.jxds.client.TestTypes.response;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.jxds.client.ScriptedTransport.ScriptedCall;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestRandom;
import io.jxds.testing.XdsResources;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What an operator sees: one line per state change, NACK warnings not repeated per retry. */
class LoggingTest {
  private final FakeClock clock = new FakeClock();
  private final ScriptedTransport transport = new ScriptedTransport();
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger jxdsLogger = (Logger) LoggerFactory.getLogger("io.jxds");
  private DefaultXdsClient client;

  @BeforeEach
  void capture() {
    appender.start();
    jxdsLogger.addAppender(appender);
  }

  @AfterEach
  void release() {
    jxdsLogger.detachAppender(appender);
    if (client != null) {
      client.close();
    }
  }

  private ScriptedCall connect(boolean ignoreResourceDeletion) {
    client =
        XdsClientBuilder.forTarget("unused.invalid:1", InsecureChannelCredentials.create())
            .transport(transport)
            .node(Node.newBuilder().setId("n").build())
            .scheduler(clock)
            .clock(clock.clock())
            .random(TestRandom.fixed(0.5))
            .ignoreResourceDeletion(ignoreResourceDeletion)
            .build();
    client.watch(TestTypes.CLUSTER, "a", new RecordingWatcher<>(), Runnable::run);
    return transport.last().ready();
  }

  private List<String> messages(Level level) {
    return appender.list.stream()
        .filter(e -> e.getLevel() == level)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Test
  void nackIsAWarningOncePerVersionAndReasonAndRepeatsGoToDebug() {
    ScriptedCall call = connect(false);
    for (int i = 0; i < 5; i++) {
      call.respond(response(CLUSTER_TYPE_URL, "2", "n" + i, XdsResources.cluster("a").edsConfigPath("/x").buildAny()));
    }
    assertThat(messages(Level.WARN)).hasSize(1).first().asString().contains("NACK").contains("\"2\"")
        .contains("eds_config");
    assertThat(messages(Level.DEBUG).stream().filter(m -> m.startsWith("NACK"))).hasSize(4);

    call.respond(response(CLUSTER_TYPE_URL, "3", "n9", XdsResources.cluster("a").edsConfigPath("/x").buildAny()));
    assertThat(messages(Level.WARN)).hasSize(2);
  }

  @Test
  void ignoredDeletionIsOneWarning() {
    ScriptedCall call = connect(true);
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", XdsResources.cluster("a").buildAny()));
    for (int i = 2; i < 6; i++) {
      call.respond(response(CLUSTER_TYPE_URL, "" + i, "n" + i));
    }
    assertThat(messages(Level.WARN)).hasSize(1).first().asString().contains("\"a\"")
        .contains("ignore_resource_deletion");
  }

  @Test
  void connectedAndLostAreLoggedOncePerStateChange() {
    ScriptedCall call = connect(false);
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", XdsResources.cluster("a").buildAny()));
    assertThat(messages(Level.INFO)).filteredOn(m -> m.contains("connected")).hasSize(1);
    assertThat(messages(Level.INFO)).filteredOn(m -> m.contains("received")).hasSize(1);

    call.close(Status.UNAVAILABLE); // recycled: silent
    assertThat(messages(Level.INFO)).filteredOn(m -> m.contains("lost")).isEmpty();
    for (int i = 0; i < 4; i++) {
      transport.last().close(Status.UNAVAILABLE.withDescription("refused"));
      clock.forwardTime(200, TimeUnit.SECONDS);
    }
    assertThat(messages(Level.INFO)).filteredOn(m -> m.contains("lost")).hasSize(1);

    transport.last().ready().respond(response(CLUSTER_TYPE_URL, "1", "n1", XdsResources.cluster("a").buildAny()));
    assertThat(messages(Level.INFO)).filteredOn(m -> m.contains("connected")).hasSize(2);
    assertThat(messages(Level.WARN)).isEmpty();
  }

  @Test
  void deletionIsLoggedAtInfo() {
    ScriptedCall call = connect(false);
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", XdsResources.cluster("a").buildAny()));
    call.respond(response(CLUSTER_TYPE_URL, "2", "n2"));
    assertThat(messages(Level.INFO)).filteredOn(m -> m.contains("deleted")).hasSize(1);
  }

  @Test
  void everyRequestAndResponseIsLoggedAtDebug() {
    ScriptedCall call = connect(false);
    call.respond(response(CLUSTER_TYPE_URL, "1", "n1", XdsResources.cluster("a").buildAny()));
    assertThat(messages(Level.DEBUG)).filteredOn(m -> m.startsWith("ADS request")).hasSize(2);
    assertThat(messages(Level.DEBUG)).filteredOn(m -> m.startsWith("ADS response")).hasSize(1);
  }
}
