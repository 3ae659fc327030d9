package io.jxds.toolkit.internal.read;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.WireFormat;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Writes a resource's proto wire bytes straight from its JSON text, which {@link JsonText} checked
 * before, by the generated message classes' descriptors: what protobuf's JsonFormat and then
 * {@code toByteString} give for the shapes xDS resources use (messages, repeated fields, scalars,
 * enums by name or number, wrapper types, durations, nested {@code Any}s), fields in number order
 * as protobuf writes them, without building a message or a JSON tree: the resource's text is read
 * once, left to right ({@link JsonCursor}), into its bytes ({@link WireOut}). Anything else (maps,
 * Struct, Timestamp, null values, unknown fields, numbers out of range or written as exponents,
 * escapes in names...) throws {@link Unsupported}, and the caller reads that resource with
 * JsonFormat instead: the two give equal bytes wherever this one answers ({@code
 * FastProtoReaderTest}), and JsonFormat's messages stay the ones users see.
 */
final class FastProtoReader {
  /** A shape this reader leaves to JsonFormat. */
  static final class Unsupported extends Exception {
    private static final long serialVersionUID = 1L;

    Unsupported(String what) {
      super(what, null, false, false);
    }
  }

  private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS = new ConcurrentHashMap<>();
  private static final Map<EnumDescriptor, Map<String, EnumValueDescriptor>> ENUM_VALUES = new ConcurrentHashMap<>();
  /** Each thread's buffers, reused resource after resource: only the finished bytes are copied out. */
  private static final ThreadLocal<Walk> WALKS = ThreadLocal.withInitial(Walk::new);

  /** The document's UTF-8 bytes (JsonText's). */
  private final byte[] text;

  FastProtoReader(byte[] text) {
    this.text = text;
  }

  /** The message of the {@code Any} whose JSON ({@code "@type"} and the message's fields) is {@code n}, as bytes. */
  ByteString readAnyBytes(JsonNode n) throws Unsupported {
    Walk walk = WALKS.get();
    walk.start(text, n.start());
    try {
      walk.anyMessage();
      return ByteString.copyFrom(walk.out.buf, 0, walk.out.size);
    } finally {
      walk.finish(); // the thread keeps its buffers, not the document
    }
  }

  /** {@link #readAnyBytes} parsed into the generated message (for tests). */
  Message readAny(JsonNode n) throws Unsupported {
    ByteString bytes = readAnyBytes(n);
    Message prototype = MessageTypes.defaultInstance(descriptor(n.stringMember("@type")).getFullName()).orElseThrow();
    try {
      return prototype.getParserForType().parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Descriptor descriptor(String type) throws Unsupported {
    if (type == null) {
      throw new Unsupported("no @type");
    }
    Descriptor d = MessageTypes.find(type).orElseThrow(() -> new Unsupported("unknown type"));
    if (isWellKnown(d)) {
      throw new Unsupported("a well-known type in an Any");
    }
    return d;
  }

  private static boolean isWellKnown(Descriptor d) {
    return d.getFullName().startsWith("google.protobuf.");
  }

  /** The JSON names of a message's fields: proto3 JSON's lowerCamelCase and the proto name. */
  private static Map<String, FieldDescriptor> fieldsOf(Descriptor d) {
    return FIELDS.computeIfAbsent(d, k -> {
      Map<String, FieldDescriptor> m = new HashMap<>();
      for (FieldDescriptor f : k.getFields()) {
        // Interned, as the walk's member names are (a lookup compares the same instance).
        m.put(f.getName().intern(), f);
        m.put(f.getJsonName().intern(), f);
      }
      return m;
    });
  }

  /**
   * An enum's value by its name: {@code EnumDescriptor.findValueByName} builds the value's full name
   * and looks it up in the file's pool, a string per call (an endpoint's health_status is one).
   */
  private static EnumValueDescriptor enumValue(EnumDescriptor type, String name) {
    return ENUM_VALUES.computeIfAbsent(type, t -> {
      Map<String, EnumValueDescriptor> byName = new HashMap<>();
      for (EnumValueDescriptor value : t.getValues()) {
        byName.put(value.getName(), value);
      }
      return byName;
    }).get(name);
  }

  /**
   * One resource's walk: a cursor over its text, the bytes written, and per nesting level the
   * fields written so far (to refuse a field given twice and to put the fields in number order).
   */
  private static final class Walk {
    final WireOut out = new WireOut();
    private final JsonCursor in = new JsonCursor();
    private Level[] levels = new Level[8];
    private int depth;

    void start(byte[] text, int pos) {
      in.start(text, pos);
      depth = 0;
      out.size = 0;
    }

    void finish() {
      in.finish();
    }

    /** The {@code Any} at the cursor: its message's fields, {@code "@type"} naming the message. */
    void anyMessage() throws Unsupported {
      fields(descriptor(in.typeOfObject()), true);
    }

    /** The object at the cursor as the fields of {@code d}, in number order ({@code "@type"} skipped in an Any). */
    private void fields(Descriptor d, boolean any) throws Unsupported {
      in.openObject();
      Level level = enter();
      Map<String, FieldDescriptor> byName = level.fieldsOf(d);
      int bodyStart = out.size;
      boolean inOrder = true;
      while (in.hasMember()) {
        String name = in.memberName();
        if (any && name.equals("@type")) {
          in.skipValue();
        } else {
          FieldDescriptor f = byName.get(name);
          if (f == null || f.isMapField()) {
            throw new Unsupported("field " + name);
          }
          level.check(f);
          if (in.literal("null")) {
            throw new Unsupported("null");
          }
          inOrder &= level.count == 0 || level.fields[level.count - 1].getNumber() < f.getNumber();
          int start = out.size;
          field(f);
          level.add(f, start, out.size);
        }
        in.next();
      }
      if (!inOrder) {
        level.sortInto(out, bodyStart);
      }
      depth--;
    }

    private Level enter() {
      if (depth == levels.length) {
        levels = Arrays.copyOf(levels, depth * 2);
      }
      Level level = levels[depth];
      if (level == null) {
        level = levels[depth] = new Level();
      }
      depth++;
      level.count = 0;
      return level;
    }

    private void field(FieldDescriptor f) throws Unsupported {
      if (!f.isRepeated()) {
        value(f, f.hasPresence());
        return;
      }
      in.openArray();
      if (!in.hasElement()) {
        return;
      }
      int start = -1;
      if (f.isPacked()) {
        out.tag(f.getNumber(), WireFormat.WIRETYPE_LENGTH_DELIMITED);
        start = out.begin();
      }
      do {
        if (start >= 0) {
          scalar(f, true);
        } else {
          value(f, true);
        }
        in.next();
      } while (in.hasElement());
      if (start >= 0) {
        out.end(start);
      }
    }

    /** One value with its tag; a scalar without presence is left out when it is its default, as protobuf does. */
    private void value(FieldDescriptor f, boolean always) throws Unsupported {
      if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        out.tag(f.getNumber(), WireFormat.WIRETYPE_LENGTH_DELIMITED);
        int start = out.begin();
        message(f.getMessageType());
        out.end(start);
        return;
      }
      int mark = out.size;
      out.tag(f.getNumber(), f.getLiteType().getWireType());
      if (!scalar(f, always)) {
        out.size = mark; // the default: not written
      }
    }

    /** Writes a scalar's value (no tag); false when it is the default and {@code always} is false. */
    private boolean scalar(FieldDescriptor f, boolean always) throws Unsupported {
      switch (f.getType()) {
        case STRING -> {
          return in.writeString(out, always);
        }
        case BYTES -> {
          byte[] b;
          try {
            b = Base64.getDecoder().decode(in.requireString());
          } catch (IllegalArgumentException e) {
            throw new Unsupported("base64");
          }
          if (b.length == 0 && !always) {
            return false;
          }
          out.bytes(b);
        }
        case BOOL -> {
          boolean b = in.bool();
          if (!b && !always) {
            return false;
          }
          out.varint(b ? 1 : 0);
        }
        case INT32 -> {
          return varint(in.integer(Integer.MIN_VALUE, Integer.MAX_VALUE), always);
        }
        case UINT32 -> {
          return varint(in.integer(0, 0xFFFF_FFFFL), always);
        }
        case SINT32 -> {
          int i = (int) in.integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
          return varint((i << 1) ^ (i >> 31) & 0xFFFF_FFFFL, always);
        }
        case FIXED32, SFIXED32 -> {
          long i = f.getType() == FieldDescriptor.Type.FIXED32 ? in.integer(0, 0xFFFF_FFFFL)
              : in.integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
          if (i == 0 && !always) {
            return false;
          }
          out.fixed32((int) i);
        }
        case INT64 -> {
          return varint(in.integer(Long.MIN_VALUE, Long.MAX_VALUE), always);
        }
        case SINT64 -> {
          long i = in.integer(Long.MIN_VALUE, Long.MAX_VALUE);
          return varint((i << 1) ^ (i >> 63), always);
        }
        case SFIXED64 -> {
          long i = in.integer(Long.MIN_VALUE, Long.MAX_VALUE);
          if (i == 0 && !always) {
            return false;
          }
          out.fixed64(i);
        }
        case DOUBLE -> {
          long bits = Double.doubleToRawLongBits(in.decimal());
          if (bits == 0 && !always) {
            return false;
          }
          out.fixed64(bits);
        }
        case ENUM -> {
          EnumValueDescriptor e = in.at('"') ? enumValue(f.getEnumType(), in.string())
              : f.getEnumType().findValueByNumber((int) in.integer(Integer.MIN_VALUE, Integer.MAX_VALUE));
          if (e == null) {
            throw new Unsupported("enum value");
          }
          return varint(e.getNumber(), always);
        }
        default -> throw new Unsupported(f.getType().name()); // uint64, fixed64, float, group
      }
      return true;
    }

    /** An int32, uint32 or int64 as protobuf writes it (a negative int32 sign-extended to ten bytes). */
    private boolean varint(long value, boolean always) {
      if (value == 0 && !always) {
        return false;
      }
      out.varint(value);
      return true;
    }

    /**
     * A message field's value, without its tag and length: well-known wrappers and durations as
     * proto3 JSON writes them.
     */
    private void message(Descriptor d) throws Unsupported {
      String name = d.getFullName();
      switch (name) {
        case "google.protobuf.UInt32Value" -> wrapped(1, in.integer(0, 0xFFFF_FFFFL));
        case "google.protobuf.Int32Value" -> wrapped(1, in.integer(Integer.MIN_VALUE, Integer.MAX_VALUE));
        case "google.protobuf.Int64Value" -> wrapped(1, in.integer(Long.MIN_VALUE, Long.MAX_VALUE));
        case "google.protobuf.BoolValue" -> wrapped(1, in.bool() ? 1 : 0);
        case "google.protobuf.StringValue" -> {
          int mark = out.size;
          out.tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
          if (!in.writeString(out, false)) {
            out.size = mark;
          }
        }
        case "google.protobuf.DoubleValue" -> {
          long bits = Double.doubleToRawLongBits(in.decimal());
          if (bits != 0) {
            out.tag(1, WireFormat.WIRETYPE_FIXED64);
            out.fixed64(bits);
          }
        }
        case "google.protobuf.Duration" -> duration(in.requireString());
        case "google.protobuf.Any" -> {
          String type = in.typeOfObject();
          if (type == null) {
            throw new Unsupported("no @type");
          }
          Descriptor inner = descriptor(type);
          out.tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
          out.string(type);
          int mark = out.size;
          out.tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
          int start = out.begin();
          fields(inner, true);
          if (out.size == start) {
            out.size = mark; // an empty message: no value field
          } else {
            out.end(start);
          }
        }
        default -> {
          if (isWellKnown(d)) {
            throw new Unsupported(name);
          }
          fields(d, false);
        }
      }
    }

    private void wrapped(int number, long value) {
      if (value != 0) {
        out.tag(number, WireFormat.WIRETYPE_VARINT);
        out.varint(value);
      }
    }

    /** {@code "1.5s"}: seconds with up to nine fractional digits, as proto3 JSON writes a Duration. */
    private void duration(String s) throws Unsupported {
      if (!s.endsWith("s") || s.length() < 2 || s.startsWith("-") || s.startsWith("+")) {
        throw new Unsupported("duration");
      }
      String body = s.substring(0, s.length() - 1);
      int dot = body.indexOf('.');
      String whole = dot < 0 ? body : body.substring(0, dot);
      String fraction = dot < 0 ? "" : body.substring(dot + 1);
      if (whole.isEmpty() || whole.length() > 12 || fraction.length() > 9 || !digits(whole) || !digits(fraction)
          || (dot >= 0 && fraction.isEmpty())) {
        throw new Unsupported("duration");
      }
      long seconds = Long.parseLong(whole);
      int nanos = fraction.isEmpty() ? 0 : Integer.parseInt((fraction + "000000000").substring(0, 9));
      if (seconds > 315_576_000_000L) {
        throw new Unsupported("duration");
      }
      wrapped(1, seconds);
      wrapped(2, nanos);
    }

    private static boolean digits(String s) {
      for (int i = 0; i < s.length(); i++) {
        if (s.charAt(i) < '0' || s.charAt(i) > '9') {
          return false;
        }
      }
      return true;
    }
  }

  /** One object's fields as written so far: which, and where their bytes are. */
  private static final class Level {
    /** The message type last read at this level and its fields by name: a level mostly reads one type. */
    private @Nullable Descriptor type;
    private @Nullable Map<String, FieldDescriptor> byName;
    FieldDescriptor[] fields = new FieldDescriptor[8];
    int[] starts = new int[8];
    int[] ends = new int[8];
    /** The fields' indexes in number order, while sorting. */
    int[] order = new int[8];
    int count;

    Map<String, FieldDescriptor> fieldsOf(Descriptor d) {
      if (d != type) {
        type = d;
        byName = FastProtoReader.fieldsOf(d);
      }
      return byName;
    }

    /** Refuses a field given twice, or a second member of a oneof (JsonFormat says which is wrong). */
    void check(FieldDescriptor f) throws Unsupported {
      for (int i = 0; i < count; i++) {
        FieldDescriptor g = fields[i];
        if (g == f) {
          throw new Unsupported("field " + f.getName() + " twice");
        }
        if (f.getContainingOneof() != null && g.getContainingOneof() == f.getContainingOneof()) {
          throw new Unsupported("two fields of a oneof");
        }
      }
    }

    void add(FieldDescriptor f, int start, int end) {
      if (count == fields.length) {
        fields = Arrays.copyOf(fields, count * 2);
        starts = Arrays.copyOf(starts, count * 2);
        ends = Arrays.copyOf(ends, count * 2);
      }
      fields[count] = f;
      starts[count] = start;
      ends[count++] = end;
    }

    /**
     * Rewrites the message's bytes from {@code bodyStart} with its fields in number order (protobuf's):
     * an insertion sort of the few fields, then each field's bytes copied back from {@code out}'s spare.
     */
    void sortInto(WireOut out, int bodyStart) {
      if (order.length < count) {
        order = new int[fields.length];
      }
      for (int i = 0; i < count; i++) {
        int field = i;
        int j = i - 1;
        for (; j >= 0 && fields[order[j]].getNumber() > fields[field].getNumber(); j--) {
          order[j + 1] = order[j];
        }
        order[j + 1] = field;
      }
      byte[] written = out.spare(out.size - bodyStart);
      System.arraycopy(out.buf, bodyStart, written, 0, out.size - bodyStart);
      int at = bodyStart;
      for (int k = 0; k < count; k++) {
        int i = order[k];
        int length = ends[i] - starts[i];
        System.arraycopy(written, starts[i] - bodyStart, out.buf, at, length);
        at += length;
      }
    }
  }
}
