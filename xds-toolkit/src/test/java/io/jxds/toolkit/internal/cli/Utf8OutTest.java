package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the command line prints reaches standard output as UTF-8, slices and all. */
class Utf8OutTest {
  @Test
  void writesEachPrintAsUtf8() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintWriter out = new PrintWriter(new Utf8Out(bytes), true);
    out.print("svc-caf\u00e9 \u20ac \ud83d\ude00\n");
    out.write("--xyz--", 2, 3);
    out.write(new char[] {'a', '\u00e9', 'b'}, 1, 2);
    out.println(42);
    out.flush();
    assertThat(bytes.toByteArray())
        .isEqualTo(("svc-caf\u00e9 \u20ac \ud83d\ude00\nxyz\u00e9b42" + System.lineSeparator())
            .getBytes(StandardCharsets.UTF_8));
  }
}
