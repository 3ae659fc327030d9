package io.jxds.balancer.testing;

import io.jxds.api.model.Endpoint;
import io.jxds.api.model.HealthStatus;
import io.jxds.api.model.LocalityId;
import io.jxds.balancer.internal.locality.LocalityConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Terse builders for test configs. */
public final class Endpoints {
  private Endpoints() {}

  /** 10.0.0.{@code host}:{@code port}... as an IP literal (no DNS). */
  public static InetSocketAddress address(int n) {
    try {
      byte[] ip = {10, 0, (byte) (n >> 8), (byte) n};
      return new InetSocketAddress(InetAddress.getByAddress(ip), 8080);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  public static Endpoint endpoint(int n) {
    return endpoint(n, 1);
  }

  public static Endpoint endpoint(int n, long weight) {
    return new Endpoint(address(n), HealthStatus.HEALTHY, weight, "");
  }

  public static Endpoint endpoint(int n, HealthStatus health) {
    return new Endpoint(address(n), health, 1, "");
  }

  public static LocalityId zone(String zone) {
    return new LocalityId("region", zone, "");
  }

  public static LocalityConfig locality(String zone, long weight, Endpoint... endpoints) {
    return new LocalityConfig(zone(zone), weight, List.of(endpoints));
  }
}
