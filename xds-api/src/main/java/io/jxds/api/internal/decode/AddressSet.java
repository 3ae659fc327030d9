package io.jxds.api.internal.decode;

import java.net.InetSocketAddress;

/**
 * The "same address twice in an assignment" check (gRFC A27 gap (b) in grpc-java), sized once per
 * decode. An open-addressing table keyed by a hash the IP parser already computed from the raw
 * bytes: {@code InetSocketAddress.hashCode()} adds the port to a weak address hash (IPv6 sums its
 * four words), which sends whole subnets into a few {@code HashMap} buckets and makes them trees.
 * Linear probing with a murmur3 finaliser keeps each insert O(1) and allocation-free.
 */
final class AddressSet {
  private final InetSocketAddress[] slots;
  private final int[] hashes;
  private final int mask;

  /** A set for up to {@code expected} addresses, at most half full. */
  AddressSet(int expected) {
    int capacity = Integer.highestOneBit(Math.max(8, expected) * 2 - 1) << 1;
    slots = new InetSocketAddress[capacity];
    hashes = new int[capacity];
    mask = capacity - 1;
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
        return true;
      }
      if (hashes[i] == h && present.equals(address)) {
        return false;
      }
      i = (i + 1) & mask;
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
