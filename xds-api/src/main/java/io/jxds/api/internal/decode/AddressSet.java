package io.jxds.api.internal.decode;

import java.net.InetSocketAddress;

/**
 * The "same address twice in an assignment" check (gRFC A27 gap (b) in grpc-java), sized once per
 * decode from the reader's estimate (and doubled should that fall short). An open-addressing table
 * keyed by a hash the IP parser already computed from the raw bytes: {@code
 * InetSocketAddress.hashCode()} adds the port to a weak address hash (IPv6 sums its four words),
 * which sends whole subnets into a few {@code HashMap} buckets and makes them trees. Linear probing
 * with a murmur3 finaliser keeps each insert O(1) and allocation-free.
 */
final class AddressSet {
  private InetSocketAddress[] slots;
  private int[] hashes;
  private int mask;
  private int size;

  /** A set for {@code expected} addresses without growing, at most half full. */
  AddressSet(int expected) {
    allocate(Integer.highestOneBit(Math.max(8, expected) * 2 - 1) << 1);
  }

  /**
   * Adds {@code address}, whose IP bytes hash to {@code ipHash}; false if it was already there.
   */
  boolean add(InetSocketAddress address, int ipHash) {
    int h = mix(ipHash * 31 + address.getPort());
    int i = h & mask;
    while (true) {
      InetSocketAddress present = slots[i];
      if (present == null) {
        slots[i] = address;
        hashes[i] = h;
        if (++size > (mask + 1) >> 1) {
          grow();
        }
        return true;
      }
      if (hashes[i] == h && present.equals(address)) {
        return false;
      }
      i = (i + 1) & mask;
    }
  }

  private void allocate(int capacity) {
    slots = new InetSocketAddress[capacity];
    hashes = new int[capacity];
    mask = capacity - 1;
  }

  /** Doubles the table, so that it stays at most half full. */
  private void grow() {
    InetSocketAddress[] oldSlots = slots;
    int[] oldHashes = hashes;
    allocate(oldSlots.length * 2);
    for (int k = 0; k < oldSlots.length; k++) {
      if (oldSlots[k] != null) {
        int i = oldHashes[k] & mask;
        while (slots[i] != null) {
          i = (i + 1) & mask;
        }
        slots[i] = oldSlots[k];
        hashes[i] = oldHashes[k];
      }
    }
  }

  /** murmur3's 32-bit finaliser: every input bit affects every output bit. */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h;
  }
}
