package io.jxds.client.internal.stream;

/**
 * Bounds the text of a NACK's {@code DiscoveryRequest.error_detail.message}: a response of
 * thousands of invalid resources would otherwise produce a request larger than the control plane
 * accepts (gRPC's default limit is 4 MiB), so the NACK itself would be refused. As Envoy does, the
 * message is cut at about 4 KiB of UTF-8, never inside a character, and ends with a marker saying
 * how many bytes were left out.
 */
final class NackDetail {
  /** The most UTF-8 bytes a NACK's message holds, marker included. */
  static final int MAX_BYTES = 4096;

  private NackDetail() {}

  /** {@code detail} if it fits in {@code maxBytes} of UTF-8, else its longest prefix that fits with the marker. */
  static String cap(String detail, int maxBytes) {
    int total = utf8Length(detail);
    if (total <= maxBytes) {
      return detail;
    }
    // The marker's digits depend on how much is cut; reserving room for the total's digits is
    // always enough, since at most everything is cut.
    int budget = maxBytes - marker(total).length();
    int end = 0;
    int bytes = 0;
    while (end < detail.length()) {
      int cp = detail.codePointAt(end);
      int size = utf8Size(cp);
      if (bytes + size > budget) {
        break;
      }
      bytes += size;
      end += Character.charCount(cp);
    }
    return detail.substring(0, end) + marker(total - bytes);
  }

  private static String marker(int cutBytes) {
    return "\n... [truncated " + cutBytes + " bytes]";
  }

  private static int utf8Length(String s) {
    int bytes = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      bytes += utf8Size(cp);
      i += Character.charCount(cp);
    }
    return bytes;
  }

  /** UTF-8 size of a code point; a lone surrogate is written as one replacement byte ('?'). */
  private static int utf8Size(int cp) {
    if (cp < 0x80) {
      return 1;
    } else if (cp < 0x800) {
      return 2;
    } else if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
      return 1;
    } else if (cp < 0x10000) {
      return 3;
    }
    return 4;
  }
}
