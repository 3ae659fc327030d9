package io.jxds.api;

/** Where a subscribed resource stands, as shown by {@link XdsClient#status()}. */
public enum ResourceState {
  /**
   * Watched, but its request has not reached a server yet (no ready stream: the control plane
   * cannot be reached, or the stream is in back-off); gRFC A40's UNKNOWN, as grpc-java reports it.
   */
  UNKNOWN,
  /** Asked for on a ready stream, nothing received yet. */
  REQUESTED,
  /** The last version received was valid and is cached. */
  ACKED,
  /** The last version received was rejected; the previous good value, if any, stays cached. */
  NACKED,
  /** The control plane deleted it (a state-of-the-world response left it out, or delta removed it). */
  DOES_NOT_EXIST,
  /**
   * The does-not-exist timer fired: no answer came within the resource timeout after it was
   * requested on a ready stream (gRFC A40's TIMEOUT); watchers were told it does not exist.
   */
  TIMEOUT
}
