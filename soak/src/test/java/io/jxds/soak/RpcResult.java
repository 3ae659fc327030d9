package io.jxds.soak;

import io.grpc.Status;

/**
 * One finished RPC.
 *
 * @param seq the RPC's number among those issued on its channel, from 0
 * @param backend the backend index that answered, or -1 if the RPC failed
 */
record RpcResult(SoakChannel channel, long seq, long startNanos, long endNanos, int backend, Status.Code code,
    String description) {
  static final String DROP_TEXT = "dropped by load balancer";

  boolean ok() {
    return backend >= 0;
  }

  boolean dropped() {
    return code == Status.Code.UNAVAILABLE && description.startsWith(DROP_TEXT);
  }

  /**
   * A failure's cause with numbers and names folded, for the report:
   * {@code UNAVAILABLE: cluster c# has no usable endpoints}.
   */
  String cause() {
    String d = description.replaceAll("[0-9]+", "#");
    int detail = d.indexOf("; last error");
    if (detail > 0) {
      d = d.substring(0, detail);
    }
    int node = d.indexOf(" (node id");
    if (node > 0) {
      d = d.substring(0, node);
    }
    if (d.length() > 90) {
      d = d.substring(0, 90) + "…";
    }
    return code + (d.isEmpty() ? "" : ": " + d);
  }

  String describe() {
    return "ch" + channel.id + " (" + channel.cluster + ") " + (ok() ? "-> b" + backend : code + ": " + description);
  }
}
