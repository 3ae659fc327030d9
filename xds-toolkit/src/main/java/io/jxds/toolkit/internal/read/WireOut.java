package io.jxds.toolkit.internal.read;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growing buffer of protobuf wire bytes, reused from message to message: tags, varints, fixed
 * numbers and length-delimited bytes; a nested message is written in place and its length put
 * before it ({@link #begin}, {@link #end}).
 */
final class WireOut {
  byte[] buf = new byte[1024];
  int size;
  /** A second buffer, reused, for bytes moved about. */
  private byte[] spare = new byte[1024];

  /** The spare buffer, with room for {@code length} bytes. */
  byte[] spare(int length) {
    if (spare.length < length) {
      spare = new byte[Math.max(length, spare.length * 2)];
    }
    return spare;
  }

  void tag(int number, int wireType) {
    varint(((long) number << 3) | wireType);
  }

  void varint(long value) {
    ensure(10);
    while ((value & ~0x7FL) != 0) {
      buf[size++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buf[size++] = (byte) value;
  }

  void fixed32(int value) {
    ensure(4);
    for (int i = 0; i < 4; i++) {
      buf[size++] = (byte) (value >>> (8 * i));
    }
  }

  void fixed64(long value) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      buf[size++] = (byte) (value >>> (8 * i));
    }
  }

  void bytes(byte[] b) {
    varint(b.length);
    ensure(b.length);
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
  }

  /** A string as UTF-8 with its length. */
  void string(String s) {
    bytes(s.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code length} bytes of {@code text} with their length. */
  void raw(byte[] text, int from, int length) {
    varint(length);
    ensure(length);
    System.arraycopy(text, from, buf, size, length);
    size += length;
  }

  /** Where a nested message starts. */
  int begin() {
    return size;
  }

  /** Puts the nested message's length before it. */
  void end(int start) {
    int length = size - start;
    int lengthSize = 1;
    for (long v = length; (v & ~0x7FL) != 0; v >>>= 7) {
      lengthSize++;
    }
    ensure(lengthSize);
    System.arraycopy(buf, start, buf, start + lengthSize, length);
    int end = size + lengthSize;
    size = start;
    varint(length);
    size = end;
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }
}
