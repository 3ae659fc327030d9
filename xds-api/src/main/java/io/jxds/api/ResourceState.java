package io.jxds.api;

/** Where a subscribed resource stands, as shown by {@link XdsClient#status()}. */
public enum ResourceState {
  /** Asked for, nothing received yet. */
  REQUESTED,
  /** The last version received was valid and is cached. */
  ACKED,
  /** The last version received was rejected; the previous good value, if any, stays cached. */
  NACKED,
  /** The control plane says it does not exist (timer or state-of-the-world deletion). */
  DOES_NOT_EXIST
}
