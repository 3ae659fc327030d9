package io.jxds.balancer.internal.hash;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Envoy's Maglev lookup table (Eisenbud et al., "Maglev", NSDI 2016, with envoy's weighting): a
 * prime number M of slots, each naming an endpoint; a request goes to slot {@code hash mod M}.
 *
 * <p>Construction: endpoint i has {@code offset = xxHash64(key) mod M} and {@code skip =
 * xxHash64(key, seed 1) mod (M - 1) + 1}, so its preference list {@code (offset + j × skip) mod
 * M} visits every slot (M is prime). Rounds go over the endpoints in order; in round r endpoint i
 * takes its next free preferred slot only while it holds at most {@code r × w_i / w_max} slots,
 * so slot counts follow the weights. Every endpoint's share is within about {@code N/M} of its
 * weight share (N endpoints). Removing one of N endpoints refills its slots and, by the paper's
 * and envoy's bound, moves few others: the test measures about 1/N plus a few percent.
 *
 * <p>4 bytes a slot (256 KiB at the default 65 537); a lookup is one remainder and one read.
 */
final class MaglevTable implements SlotTable {
  private final int[] slots;

  private MaglevTable(int[] slots) {
    this.slots = slots;
  }

  /**
   * Builds the table of {@code keys} with {@code weights}, {@code tableSize} slots.
   *
   * @throws IllegalArgumentException if there are no keys
   */
  static MaglevTable build(List<String> keys, double[] weights, int tableSize) {
    int n = keys.size();
    if (n == 0) {
      throw new IllegalArgumentException("a Maglev table needs at least one endpoint");
    }
    long[] offset = new long[n];
    long[] skip = new long[n];
    long[] next = new long[n];
    long[] count = new long[n];
    double[] share = new double[n];
    double max = 0;
    for (double w : weights) {
      max = Math.max(max, w);
    }
    for (int i = 0; i < n; i++) {
      byte[] key = keys.get(i).getBytes(StandardCharsets.UTF_8);
      offset[i] = Long.remainderUnsigned(XxHash64.hash(key, 0), tableSize);
      skip[i] = Long.remainderUnsigned(XxHash64.hash(key, 1), tableSize - 1) + 1;
      share[i] = weights[i] / max;
    }
    int[] slots = new int[tableSize];
    Arrays.fill(slots, -1);
    int filled = 0;
    for (long round = 1; filled < tableSize; round++) {
      for (int i = 0; i < n && filled < tableSize; i++) {
        if (round * share[i] < count[i]) {
          continue; // this endpoint has its share for now
        }
        int c = (int) ((offset[i] + skip[i] * next[i]) % tableSize);
        while (slots[c] >= 0) {
          next[i]++;
          c = (int) ((offset[i] + skip[i] * next[i]) % tableSize);
        }
        slots[c] = i;
        next[i]++;
        count[i]++;
        filled++;
      }
    }
    return new MaglevTable(slots);
  }

  @Override
  public int size() {
    return slots.length;
  }

  @Override
  public int firstSlot(long hash) {
    return (int) Long.remainderUnsigned(hash, slots.length);
  }

  @Override
  public int endpointAt(int slot) {
    return slots[slot];
  }

  /**
   * Slot s takes the hashes {@code ≡ s (mod M)}: {@code floor(2^64 / M)} of them, one more for s
   * below {@code 2^64 mod M}.
   */
  @Override
  public BigInteger[] hashesPerEndpoint(int endpoints) {
    BigInteger[] qr = BigInteger.ONE.shiftLeft(64).divideAndRemainder(BigInteger.valueOf(slots.length));
    long[] low = new long[endpoints];
    long[] extra = new long[endpoints];
    long remainder = qr[1].longValueExact();
    for (int s = 0; s < slots.length; s++) {
      low[slots[s]]++;
      if (s < remainder) {
        extra[slots[s]]++;
      }
    }
    BigInteger[] counts = new BigInteger[endpoints];
    for (int i = 0; i < endpoints; i++) {
      counts[i] = qr[0].multiply(BigInteger.valueOf(low[i])).add(BigInteger.valueOf(extra[i]));
    }
    return counts;
  }
}
