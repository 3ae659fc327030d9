package io.jxds.balancer.internal.hash;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * gRFC A42's ring: each endpoint holds ring entries in proportion to its normalized weight, at
 * the xxHash64 of {@code "<key>_<n>"} for its n-th entry; a request goes to the first entry at or
 * after its hash (wrapping), so removing one of N equal endpoints moves only the keys that
 * landed on its entries, about 1/N of them.
 *
 * <p>Size (A42): {@code scale = min(ceil(minWeight × minRingSize) / minWeight, maxRingSize)}
 * where minWeight is the smallest normalized weight, so the lightest endpoint gets at least one
 * entry whenever the maximum allows; the ring then has about {@code scale} entries. Worked
 * number: 3 endpoints of weights 1, 1, 2 (normalized 0.25, 0.25, 0.5) and min ring 1024 give
 * scale 1024 and 256, 256 and 512 entries.
 *
 * <p>Layout: one {@code long} per entry, sorted: the hash with its low {@code b} bits replaced
 * by the endpoint index ({@code b} just enough for the endpoint count), its sign bit flipped so
 * that a signed sort is the unsigned order. Two hashes that differ only in those low bits (less
 * than 2^-40 of the hash space for 16 M endpoints) are ordered by index: a request's position on
 * the ring is resolved to 2^b, which moves no share measurably. 8 bytes an entry.
 *
 * <p>Lookup: an index by the hash's top bits, one {@code int} a bucket. A bucket that holds no
 * entry answers every hash in it with the first entry after it, so its index value is that slot
 * and the lookup reads nothing else. Otherwise the value is the bucket's first entry,
 * complemented, and a scan from there stops at the first entry not below the hash; a sentinel
 * after the last entry stops it without a bounds test. A ring of up to 16 384 entries gets 4 to
 * 8 buckets an entry (at most {@value #SMALL_INDEX_BUCKETS}, 256 KiB like Maglev's default
 * table), so 78-88 % of hashes land in an empty bucket; up to 2^18 entries, {@value
 * #SMALL_INDEX_BUCKETS} buckets; beyond, a bucket per two to four entries (a quarter of the
 * entries' size at most), so a lookup in an 8M-entry ring reads one index value and a few
 * neighbouring entries, where a binary search would read twenty-three.
 */
final class HashRing implements SlotTable {
  /** The most buckets an index gets up to 2^18 entries: 256 KiB, the size of Maglev's default table. */
  private static final int SMALL_INDEX_BUCKETS = 1 << 16;
  /** Not below any key: a key's index bits are zero, so it is at most this minus the index mask. */
  private static final long SENTINEL = Long.MAX_VALUE;

  /** The sorted entries, then the sentinel. */
  private final long[] entries;
  private final int size;
  private final long indexMask;
  /**
   * For bucket b (the hashes whose top bits are b): the slot every hash in it lands on if it
   * holds no entry, else the complement of its first entry's slot.
   */
  private final int[] index;
  private final int bucketShift;

  /** {@code entries}: sorted, then the sentinel. */
  private HashRing(long[] entries, long indexMask) {
    this.size = entries.length - 1;
    this.entries = entries;
    this.indexMask = indexMask;
    int sizeBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, size - 1)); // ceil(log2(size))
    int bits = Math.max(1, Math.min(sizeBits + 2, Math.max(Integer.numberOfTrailingZeros(SMALL_INDEX_BUCKETS),
        sizeBits - 2)));
    this.bucketShift = 64 - bits;
    this.index = new int[1 << bits];
    int e = 0;
    for (int b = 0; b < index.length; b++) {
      int start = e;
      while (e < size && bucketOf(entries[e] ^ Long.MIN_VALUE) == b) {
        e++;
      }
      index[b] = start < e ? ~start : start == size ? 0 : start;
    }
  }

  private int bucketOf(long hash) {
    return (int) (hash >>> bucketShift);
  }

  /**
   * Builds the ring of {@code keys} with {@code weights} (any positive scale; normalized here).
   *
   * @throws IllegalArgumentException if there are no keys
   */
  static HashRing build(List<String> keys, double[] weights, long minRingSize, long maxRingSize) {
    int n = keys.size();
    if (n == 0) {
      throw new IllegalArgumentException("a ring needs at least one endpoint");
    }
    double total = 0;
    for (double w : weights) {
      total += w;
    }
    double minNormalized = Double.MAX_VALUE;
    for (double w : weights) {
      minNormalized = Math.min(minNormalized, w / total);
    }
    double scale = Math.min(Math.ceil(minNormalized * minRingSize) / minNormalized, maxRingSize);
    int bits = Math.max(1, 64 - Long.numberOfLeadingZeros(n - 1));
    long mask = (1L << bits) - 1;
    long[] entries = new long[(int) Math.min(Math.ceil(scale) + n, Integer.MAX_VALUE - 8)];
    int size = 0;
    double current = 0;
    double target = 0;
    for (int i = 0; i < n; i++) {
      current += scale * weights[i] / total;
      // The bytes of "<key>_<count>", the count's digits rewritten in place for each entry.
      byte[] prefix = (keys.get(i) + "_").getBytes(StandardCharsets.UTF_8);
      byte[] text = Arrays.copyOf(prefix, prefix.length + 11);
      int count = 0;
      while (current > target && size < entries.length) {
        int length = prefix.length + writeDecimal(text, prefix.length, count++);
        long hash = XxHash64.hash(text, length, 0);
        entries[size++] = ((hash & ~mask) | i) ^ Long.MIN_VALUE;
        target += 1;
      }
    }
    long[] ring = Arrays.copyOf(entries, size + 1);
    Arrays.sort(ring, 0, size);
    ring[size] = SENTINEL;
    return new HashRing(ring, mask);
  }

  /** Writes {@code value >= 0} in decimal ASCII at {@code at}; returns the number of digits. */
  private static int writeDecimal(byte[] out, int at, int value) {
    int digits = value < 10 ? 1 : (int) Math.log10(value) + 1;
    int v = value;
    for (int d = digits - 1; d >= 0; d--) {
      out[at + d] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return digits;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public int firstSlot(long hash) {
    int at = index[bucketOf(hash)];
    if (at >= 0) {
      return at;
    }
    // Entries before the hash's bucket are smaller than its key, so the answer is the first one
    // from the bucket's start on that is not below it, or the sentinel: wrap to slot 0.
    long key = (hash & ~indexMask) ^ Long.MIN_VALUE;
    at = ~at;
    while (entries[at] < key) {
      at++;
    }
    return at == size ? 0 : at;
  }

  /** The ring position (hash without its index bits) of {@code slot}, as an unsigned value. */
  long positionAt(int slot) {
    return (entries[slot] ^ Long.MIN_VALUE) & ~indexMask;
  }

  /** The ring position a request {@code hash} is resolved to (its index bits cleared). */
  long position(long hash) {
    return hash & ~indexMask;
  }

  @Override
  public int endpointAt(int slot) {
    return (int) (entries[slot] & indexMask);
  }

  /**
   * A hash lands on the first entry whose position is at or after the hash's position (its index
   * bits cleared; the first of equal positions wins), wrapping to entry 0: entry j takes the
   * {@code p_j − p_(j−1)} hashes after the previous position, entry 0 the rest of the circle.
   */
  @Override
  public BigInteger[] hashesPerEndpoint(int endpoints) {
    BigInteger[] counts = new BigInteger[endpoints];
    Arrays.fill(counts, BigInteger.ZERO);
    BigInteger unit = BigInteger.ONE.shiftLeft(64);
    BigInteger covered = BigInteger.ZERO;
    for (int j = 1; j < size; j++) {
      long arc = positionAt(j) - positionAt(j - 1); // unsigned difference of sorted positions
      if (arc != 0) {
        BigInteger a = new BigInteger(Long.toUnsignedString(arc));
        counts[endpointAt(j)] = counts[endpointAt(j)].add(a);
        covered = covered.add(a);
      }
    }
    counts[endpointAt(0)] = counts[endpointAt(0)].add(unit.subtract(covered));
    return counts;
  }
}
