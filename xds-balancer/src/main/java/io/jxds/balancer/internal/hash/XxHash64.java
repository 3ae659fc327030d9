package io.jxds.balancer.internal.hash;

import java.nio.charset.StandardCharsets;

/**
 * xxHash64 (the XX_HASH of envoy's {@code ring_hash_lb_config.hash_function}, gRFC A42), seed 0
 * unless given: the 64-bit hash of a byte string, read little-endian in 32-byte stripes by four
 * accumulators, then the tail in 8-, 4- and 1-byte steps, then an avalanche. Written from the
 * algorithm's public specification and checked against its published test vectors.
 */
public final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  /**
   * The hash of {@code text}'s UTF-8 bytes, seed 0. ASCII text (every header value gRPC decodes)
   * is hashed from its chars, without copying it into bytes; other text from its UTF-8 encoding.
   */
  public static long hash(String text) {
    int length = text.length();
    for (int i = 0; i < length; i++) {
      if (text.charAt(i) >= 0x80) {
        return hash(text.getBytes(StandardCharsets.UTF_8), 0);
      }
    }
    return hashAscii(text, length);
  }

  /** {@link #hash(byte[], int, long)} with seed 0 of ASCII {@code text}, each char one byte. */
  private static long hashAscii(String text, int length) {
    int i = 0;
    long h;
    if (length >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      int limit = length - 32;
      do {
        v1 = round(v1, readLong(text, i));
        v2 = round(v2, readLong(text, i + 8));
        v3 = round(v3, readLong(text, i + 16));
        v4 = round(v4, readLong(text, i + 24));
        i += 32;
      } while (i <= limit);
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      h = mergeRound(h, v1);
      h = mergeRound(h, v2);
      h = mergeRound(h, v3);
      h = mergeRound(h, v4);
    } else {
      h = P5;
    }
    h += length;
    while (i + 8 <= length) {
      h ^= round(0, readLong(text, i));
      h = Long.rotateLeft(h, 27) * P1 + P4;
      i += 8;
    }
    if (i + 4 <= length) {
      h ^= readInt(text, i) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      i += 4;
    }
    while (i < length) {
      h ^= text.charAt(i) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      i++;
    }
    return avalanche(h);
  }

  /** The hash of {@code data} with {@code seed}. */
  public static long hash(byte[] data, long seed) {
    return hash(data, data.length, seed);
  }

  /** The hash of the first {@code length} bytes of {@code data} with {@code seed}. */
  public static long hash(byte[] data, int length, long seed) {
    int i = 0;
    long h;
    if (length >= 32) {
      long v1 = seed + P1 + P2;
      long v2 = seed + P2;
      long v3 = seed;
      long v4 = seed - P1;
      int limit = length - 32;
      do {
        v1 = round(v1, readLong(data, i));
        v2 = round(v2, readLong(data, i + 8));
        v3 = round(v3, readLong(data, i + 16));
        v4 = round(v4, readLong(data, i + 24));
        i += 32;
      } while (i <= limit);
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      h = mergeRound(h, v1);
      h = mergeRound(h, v2);
      h = mergeRound(h, v3);
      h = mergeRound(h, v4);
    } else {
      h = seed + P5;
    }
    h += length;
    while (i + 8 <= length) {
      h ^= round(0, readLong(data, i));
      h = Long.rotateLeft(h, 27) * P1 + P4;
      i += 8;
    }
    if (i + 4 <= length) {
      h ^= (readInt(data, i) & 0xFFFF_FFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      i += 4;
    }
    while (i < length) {
      h ^= (data[i] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      i++;
    }
    return avalanche(h);
  }

  private static long avalanche(long h) {
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    acc = Long.rotateLeft(acc, 31);
    return acc * P1;
  }

  private static long mergeRound(long acc, long val) {
    acc ^= round(0, val);
    return acc * P1 + P4;
  }

  private static long readLong(byte[] b, int i) {
    return (b[i] & 0xFFL)
        | (b[i + 1] & 0xFFL) << 8
        | (b[i + 2] & 0xFFL) << 16
        | (b[i + 3] & 0xFFL) << 24
        | (b[i + 4] & 0xFFL) << 32
        | (b[i + 5] & 0xFFL) << 40
        | (b[i + 6] & 0xFFL) << 48
        | (b[i + 7] & 0xFFL) << 56;
  }

  private static long readLong(String s, int i) {
    return readInt(s, i) | readInt(s, i + 4) << 32;
  }

  /** Four ASCII chars from {@code i}, little-endian, as an unsigned int. */
  private static long readInt(String s, int i) {
    return (long) s.charAt(i) | (long) s.charAt(i + 1) << 8 | (long) s.charAt(i + 2) << 16
        | (long) s.charAt(i + 3) << 24;
  }

  private static int readInt(byte[] b, int i) {
    return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
  }
}
