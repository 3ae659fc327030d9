package io.jxds.toolkit.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** JsonText reads UTF-8 bytes: it accepts and decodes what Java's strict decoder does, and refuses the rest. */
class JsonTextUtf8Test {
  /** Bytes that make and break UTF-8: ASCII, continuation bytes, every kind of lead, the edges between. */
  private static final int[] BYTES = {'a', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
    0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};

  @Test
  void aStringReadsAsTheStrictDecoderReadsItOrNotAtAll() throws Exception {
    SplittableRandom random = new SplittableRandom(8);
    for (int i = 0; i < 20_000; i++) {
      ByteArrayOutputStream inner = new ByteArrayOutputStream();
      for (int n = 1 + random.nextInt(6); n > 0; n--) {
        inner.write(BYTES[random.nextInt(BYTES.length)]);
      }
      byte[] content = inner.toByteArray();
      ByteArrayOutputStream doc = new ByteArrayOutputStream();
      doc.writeBytes("{\"s\": \"".getBytes(StandardCharsets.US_ASCII));
      doc.writeBytes(content);
      doc.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
      String hex = HexFormat.ofDelimiter(" ").formatHex(content);
      String strict = strictlyDecoded(content);
      if (strict == null) {
        assertThatThrownBy(() -> JsonText.parse(doc.toByteArray(), new ArrayList<>())).as(hex)
            .isInstanceOfSatisfying(JsonText.SyntaxError.class, e -> assertThat(e.notUtf8()).isTrue());
      } else {
        assertThat(JsonText.parse(doc.toByteArray(), new ArrayList<>()).stringMember("s")).as(hex)
            .isEqualTo(strict);
      }
    }
  }

  @Test
  void aColumnCountsCharactersNotBytes() {
    assertThatThrownBy(() -> JsonText.parse("{\"caf\u00e9\u20ac\": 1 2}")).isInstanceOf(JsonText.SyntaxError.class)
        .hasMessage("line 1, column 13: expected ',' or '}', got '2'");
    assertThatThrownBy(() -> JsonText.parse("[1, \u00e9]")).isInstanceOf(JsonText.SyntaxError.class)
        .hasMessage("line 1, column 5: unexpected '\u00e9'");
  }

  @Test
  void aByteOrderMarkIsSkipped() throws Exception {
    assertThat(JsonText.parse("\uFEFF{\"a\": \"b\"}").stringMember("a")).isEqualTo("b");
  }

  private static String strictlyDecoded(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
