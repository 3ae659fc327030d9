package io.jxds.balancer.internal.hash;

import java.math.BigInteger;

/**
 * Where a request hash lands: a ring ({@link HashRing}) or a Maglev table ({@link MaglevTable}),
 * seen as a cyclic sequence of slots, each naming an endpoint by index. The picker starts at the
 * hash's first slot and, when that endpoint cannot serve, walks on to the following slots.
 */
interface SlotTable {
  /** The number of slots. */
  int size();

  /** The slot a request with {@code hash} lands on. */
  int firstSlot(long hash);

  /** The endpoint index in {@code slot}, in [0, endpoint count). */
  int endpointAt(int slot);

  /**
   * For each endpoint index, how many of the 2^64 request hashes land first on one of its slots:
   * its share of uniformly random hashes is that over 2^64 (the control-plane toolkit's plan).
   */
  BigInteger[] hashesPerEndpoint(int endpoints);
}
