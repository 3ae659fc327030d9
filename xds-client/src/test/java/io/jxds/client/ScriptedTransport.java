package io.jxds.client;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.jxds.client.internal.stream.AdsTransport;
import io.jxds.testing.FakeClock;
import io.jxds.testing.TestRandom;
import java.util.ArrayList;
import java.util.List;

/** An in-memory ADS transport driven by the test thread: each call records what the client did. */
final class ScriptedTransport implements AdsTransport {
  final List<ScriptedCall> calls = new ArrayList<>();
  final List<ScriptedDeltaCall> deltaCalls = new ArrayList<>();
  boolean shutdown;

  @Override
  public DeltaCall startDelta(DeltaListener listener) {
    ScriptedDeltaCall call = new ScriptedDeltaCall(listener);
    deltaCalls.add(call);
    return call;
  }

  ScriptedDeltaCall lastDelta() {
    return deltaCalls.get(deltaCalls.size() - 1);
  }

  @Override
  public Call start(Listener listener) {
    ScriptedCall call = new ScriptedCall(listener);
    calls.add(call);
    return call;
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public String target() {
    return "scripted";
  }

  ScriptedCall last() {
    return calls.get(calls.size() - 1);
  }

  /** A client on this transport, timed by {@code clock} (timers, update times, stream lifetimes), without jitter. */
  XdsClientBuilder clientBuilder(FakeClock clock, Node node) {
    return XdsClientBuilder.forTarget("unused.invalid:1", InsecureChannelCredentials.create())
        .transport(this)
        .node(node)
        .scheduler(clock)
        .clock(clock.clock())
        .ticker(clock.ticker())
        .random(TestRandom.fixed(0.5)); // no jitter: exact backoff delays
  }

  /** What a call recorded, whichever protocol it speaks. */
  abstract static class Recording<Q> {
    final List<Q> sent = new ArrayList<>();
    int requested;
    String cancelled;

    public void send(Q request) {
      sent.add(request);
    }

    public void request(int count) {
      requested += count;
    }

    public void cancel(String reason) {
      cancelled = reason;
    }

    Q lastRequest() {
      return sent.get(sent.size() - 1);
    }
  }

  static final class ScriptedCall extends Recording<DiscoveryRequest> implements Call {
    final Listener listener;

    ScriptedCall(Listener listener) {
      this.listener = listener;
    }

    ScriptedCall ready() {
      listener.onReady();
      return this;
    }

    ScriptedCall respond(DiscoveryResponse response) {
      listener.onResponse(response);
      return this;
    }

    void close(Status status) {
      listener.onClose(status);
    }
  }

  static final class ScriptedDeltaCall extends Recording<DeltaDiscoveryRequest> implements DeltaCall {
    final DeltaListener listener;

    ScriptedDeltaCall(DeltaListener listener) {
      this.listener = listener;
    }

    ScriptedDeltaCall ready() {
      listener.onReady();
      return this;
    }

    ScriptedDeltaCall respond(DeltaDiscoveryResponse response) {
      listener.onResponse(response);
      return this;
    }

    void close(Status status) {
      listener.onClose(status);
    }
  }
}
