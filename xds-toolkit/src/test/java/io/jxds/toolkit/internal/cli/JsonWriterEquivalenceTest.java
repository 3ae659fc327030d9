package io.jxds.toolkit.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.stream.JsonWriter;
import io.jxds.toolkit.Fraction;
import java.io.IOException;
import java.io.StringWriter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The output's JSON writer against the reference it replaced, Gson's {@link JsonWriter} with a
 * two-space indent: random documents (nesting, empty objects and arrays, every kind of value, strings
 * with quotes, backslashes, control characters, U+2028/U+2029, non-ASCII and surrogates) give the
 * same text, character for character.
 */
class JsonWriterEquivalenceTest {
  private static final String ALPHABET = "ab \"\\/\t\b\n\r\f\u0000\u0001\u001f\u007f\u00e9\u2028\u2029\u20ac"
      + "\ud83d\ude00<>&='";

  @Test
  void randomDocumentsAreWrittenAsGsonWritesThem() throws IOException {
    SplittableRandom random = new SplittableRandom(25);
    for (int doc = 0; doc < 2_000; doc++) {
      StringWriter gsonText = new StringWriter();
      JsonWriter gson = new JsonWriter(gsonText);
      gson.setIndent("  ");
      Json ours = new Json();
      gson.beginObject();
      ours.begin();
      members(random, 0, ours, gson);
      gson.endObject();
      gson.flush();
      assertThat(ours.end().toString()).as("document %d", doc).isEqualTo(gsonText.toString());
    }
  }

  @Test
  void aDocumentLargerThanTheBufferGoesToTheWriterWhole() throws IOException {
    StringWriter gsonText = new StringWriter();
    JsonWriter gson = new JsonWriter(gsonText);
    gson.setIndent("  ");
    StringWriter oursText = new StringWriter();
    Json ours = new Json(oursText);
    gson.beginObject().name("items").beginArray();
    ours.begin().beginArray("items");
    String longString = "x\"".repeat(70_000);
    for (int i = 0; i < 30_000; i++) {
      gson.beginObject().name("i").value(i).name("s").value(i % 10_000 == 0 ? longString : "v" + i).endObject();
      ours.beginElement().number("i", i).string("s", i % 10_000 == 0 ? longString : "v" + i).end();
    }
    gson.endArray().endObject().flush();
    ours.endArray().end().flush();
    assertThat(oursText.toString()).isEqualTo(gsonText.toString());
  }

  @Test
  void elementsWrittenApartGoInAsWrittenInPlace() throws IOException {
    SplittableRandom random = new SplittableRandom(27);
    for (int doc = 0; doc < 300; doc++) {
      StringWriter gsonText = new StringWriter();
      JsonWriter gson = new JsonWriter(gsonText);
      gson.setIndent("  ");
      StringWriter oursText = new StringWriter();
      Json ours = new Json(oursText);
      gson.beginObject().name("clusters").beginArray();
      ours.begin().beginArray("clusters");
      int elements = random.nextInt(4);
      for (int e = 0; e < elements; e++) {
        Json element = Json.fragment(ours.depth(), random.nextInt(200));
        element.beginElement();
        gson.beginObject();
        members(random, 2, element, gson);
        element.end();
        gson.endObject();
        ours.element(element.fragment());
      }
      gson.endArray().endObject().flush();
      ours.endArray().end().flush();
      assertThat(oursText.toString()).as("document %d", doc).isEqualTo(gsonText.toString());
    }
  }

  private static void members(SplittableRandom random, int depth, Json ours, JsonWriter gson) throws IOException {
    int count = random.nextInt(depth > 3 ? 2 : 5);
    for (int i = 0; i < count; i++) {
      String name = string(random);
      switch (random.nextInt(depth > 3 ? 6 : 8)) {
        case 0 -> {
          String v = string(random);
          ours.string(name, v);
          gson.name(name).value(v);
        }
        case 1 -> {
          long v = random.nextLong() >> random.nextInt(64);
          ours.number(name, v);
          gson.name(name).value(v);
        }
        case 2 -> {
          boolean v = random.nextBoolean();
          ours.bool(name, v);
          gson.name(name).value(v);
        }
        case 3 -> {
          ours.nullValue(name);
          gson.name(name).nullValue();
        }
        case 4, 5 -> {
          long denominator = 1 + random.nextLong(1L << random.nextInt(1, 62));
          Fraction f = Fraction.of(random.nextLong(1_000_000) - 1_000, denominator);
          ours.fraction(name, f);
          gson.name(name).jsonValue(Json.decimal(f)).name(name + "Exact").value(f.toString());
        }
        case 6 -> {
          ours.beginObject(name);
          gson.name(name).beginObject();
          members(random, depth + 1, ours, gson);
          ours.end();
          gson.endObject();
        }
        default -> {
          ours.beginArray(name);
          gson.name(name).beginArray();
          int elements = random.nextInt(4);
          for (int e = 0; e < elements; e++) {
            if (random.nextBoolean()) {
              String v = string(random);
              ours.stringElement(v);
              gson.value(v);
            } else {
              ours.beginElement();
              gson.beginObject();
              members(random, depth + 1, ours, gson);
              ours.end();
              gson.endObject();
            }
          }
          ours.endArray();
          gson.endArray();
        }
      }
    }
  }

  private static String string(SplittableRandom random) {
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(12);
    for (int i = 0; i < length; i++) {
      s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return s.toString();
  }
}
