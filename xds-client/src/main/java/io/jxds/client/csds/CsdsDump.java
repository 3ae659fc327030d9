package io.jxds.client.csds;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import io.envoyproxy.envoy.admin.v3.ClientResourceStatus;
import io.envoyproxy.envoy.admin.v3.UpdateFailureState;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.envoyproxy.envoy.service.status.v3.ClientConfig;
import io.envoyproxy.envoy.service.status.v3.ClientStatusRequest;
import io.envoyproxy.envoy.service.status.v3.ClientStatusResponse;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.client.internal.LiveClients;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Turns the live clients' status snapshots into a CSDS response (gRFC A40). */
final class CsdsDump {
  private static final String RESOURCE_WRAPPER_TYPE_URL =
      "type.googleapis.com/" + Resource.getDescriptor().getFullName();

  private CsdsDump() {}

  /** Null when the request can be answered, else why not. */
  static @Nullable Status check(ClientStatusRequest request) {
    if (request.getNodeMatchersCount() > 0) {
      return Status.INVALID_ARGUMENT.withDescription("node_matchers is not supported");
    }
    return null;
  }

  static ClientStatusResponse of(ClientStatusRequest request) {
    boolean withContents = !request.getExcludeResourceContents();
    ClientStatusResponse.Builder out = ClientStatusResponse.newBuilder();
    for (LiveClients.Client client : LiveClients.all()) {
      ClientConfig.Builder config =
          ClientConfig.newBuilder().setNode(client.node()).setClientScope(client.serverTarget());
      for (ResourceStatus r : client.status().resources()) {
        config.addGenericXdsConfigs(genericConfig(r, withContents));
      }
      out.addConfig(config);
    }
    return out.build();
  }

  private static ClientConfig.GenericXdsConfig genericConfig(ResourceStatus r, boolean withContents) {
    ClientConfig.GenericXdsConfig.Builder b = ClientConfig.GenericXdsConfig.newBuilder()
        .setTypeUrl(r.typeUrl())
        .setName(r.name())
        .setVersionInfo(r.version())
        .setClientStatus(clientStatus(r.state()));
    r.lastUpdated().ifPresent(t -> b.setLastUpdated(timestamp(t)));
    if (withContents) {
      r.rawResource().ifPresent(raw -> b.setXdsConfig(unwrapped(raw)));
    }
    if (r.rejectedVersion().isPresent()) {
      UpdateFailureState.Builder failure = UpdateFailureState.newBuilder()
          .setVersionInfo(r.rejectedVersion().get())
          .setDetails(r.lastError().orElse(""));
      r.lastRejected().ifPresent(t -> failure.setLastUpdateAttempt(timestamp(t)));
      b.setErrorState(failure);
    }
    return b.build();
  }

  private static ClientResourceStatus clientStatus(ResourceState state) {
    return switch (state) {
      case UNKNOWN -> ClientResourceStatus.UNKNOWN;
      case REQUESTED -> ClientResourceStatus.REQUESTED;
      case ACKED -> ClientResourceStatus.ACKED;
      case NACKED -> ClientResourceStatus.NACKED;
      case DOES_NOT_EXIST -> ClientResourceStatus.DOES_NOT_EXIST;
      case TIMEOUT -> ClientResourceStatus.TIMEOUT;
    };
  }

  /**
   * The resource itself: a resource that came wrapped in {@code envoy.service.discovery.v3.Resource}
   * (advertised with {@code xds.config.resource-in-sotw}) is shown without the wrapper.
   */
  private static Any unwrapped(Any raw) {
    if (!raw.getTypeUrl().equals(RESOURCE_WRAPPER_TYPE_URL)) {
      return raw;
    }
    try {
      return Resource.parseFrom(raw.getValue()).getResource();
    } catch (InvalidProtocolBufferException e) {
      return raw; // it was accepted, so it parsed once; show what came rather than nothing
    }
  }

  private static Timestamp timestamp(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }
}
