package io.jxds.balancer.internal.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** xxHash64 against the algorithm's published test vectors, covering every input-length path. */
class XxHash64Test {
  @Test
  void shortInputsMatchPublishedVectors() {
    assertThat(XxHash64.hash("")).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(XxHash64.hash("a")).isEqualTo(0xD24EC4F1A98C6E5BL);
    assertThat(XxHash64.hash("abc")).isEqualTo(0x44BC2CF5AD770999L);
    assertThat(XxHash64.hash("ABC")).isEqualTo(0xE66AE7354FCFEE98L);
    assertThat(XxHash64.hash("xxhash")).isEqualTo(0x32DD38952C4BC720L);
    assertThat(XxHash64.hash("foo")).isEqualTo(3728699739546630719L);
  }

  @Test
  void tailOfEightAndFourByteStepsMatchesPublishedVector() {
    // 31 bytes: three 8-byte steps, no 4-byte step, seven single bytes.
    assertThat(XxHash64.hash("abcdefghijklmnopqrstuvwxyz12345")).isEqualTo(0x467605901B01D6F6L);
  }

  @Test
  void stripedInputMatchesPublishedVector() {
    // 39 bytes: one 32-byte stripe through the four accumulators, then a 4-byte step and 3 bytes.
    assertThat(XxHash64.hash("Nobody inspects the spammish repetition")).isEqualTo(0xFBCEA83C8A378BF1L);
  }

  @Test
  void seedsMatchPublishedVectors() {
    assertThat(XxHash64.hash(new byte[0], 668718853)).isEqualTo(0x04E830582A31A119L);
    assertThat(XxHash64.hash("a".getBytes(StandardCharsets.UTF_8), 191961062)).isEqualTo(0x6E05BA2887C97977L);
  }

  @Test
  void asciiTextHashesAsItsBytesAtEveryLengthAndOtherTextAsItsUtf8() {
    java.util.Random random = new java.util.Random(7);
    for (int length = 0; length <= 100; length++) {
      char[] chars = new char[length];
      for (int i = 0; i < length; i++) {
        chars[i] = (char) random.nextInt(0x80);
      }
      String text = new String(chars);
      assertThat(XxHash64.hash(text)).as("length %d", length)
          .isEqualTo(XxHash64.hash(text.getBytes(StandardCharsets.US_ASCII), 0));
    }
    String accented = "caf\u00e9 \ufffd and more than thirty-two chars";
    assertThat(XxHash64.hash(accented)).isEqualTo(XxHash64.hash(accented.getBytes(StandardCharsets.UTF_8), 0));
  }
}
