package io.jxds.client.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NackDetailTest {
  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  void shortDetailIsUnchanged() {
    String detail = "cluster \"a\": bad";
    assertThat(NackDetail.cap(detail, 4096)).isSameAs(detail);
    String exact = "x".repeat(4096);
    assertThat(NackDetail.cap(exact, 4096)).isSameAs(exact);
  }

  @Test
  void longAsciiDetailIsCutToTheLimitAndSaysHowMuchWasCut() {
    String detail = "y".repeat(10_000);
    String capped = NackDetail.cap(detail, 4096);
    assertThat(utf8(capped)).isBetween(4090, 4096);
    String marker = capped.substring(capped.indexOf('\n'));
    int kept = capped.indexOf('\n');
    assertThat(marker).isEqualTo("\n... [truncated " + (10_000 - kept) + " bytes]");
  }

  @Test
  void neverSplitsAMultiByteCharacterOrASurrogatePair() {
    // Every character is 4 bytes (a surrogate pair in Java): the cut must fall between pairs.
    for (int limit = 40; limit < 60; limit++) {
      String detail = "\uD83D\uDE00".repeat(100);
      String capped = NackDetail.cap(detail, limit);
      assertThat(utf8(capped)).isLessThanOrEqualTo(limit);
      String kept = capped.substring(0, capped.indexOf('\n'));
      assertThat(kept.length() % 2).isZero();
      assertThat(kept.codePoints().allMatch(cp -> cp == 0x1F600)).isTrue();
      assertThat(new String(capped.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(capped);
      int cut = Integer.parseInt(capped.replaceAll("(?s).*truncated (\\d+) bytes]$", "$1"));
      assertThat(utf8(kept) + cut).isEqualTo(400);
    }
  }

  @Test
  void twoByteCharactersAreCountedAsTwoBytes() {
    String detail = "\u00e9".repeat(3000); // 6000 bytes
    String capped = NackDetail.cap(detail, 4096);
    assertThat(utf8(capped)).isBetween(4095, 4096);
    assertThat(capped).endsWith("bytes]");
  }
}
