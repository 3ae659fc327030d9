package io.jxds.toolkit.internal.read;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.WireFormat;
import java.nio.charset.StandardCharsets;
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
 * once, left to right, into its bytes. Anything else (maps, Struct, Timestamp, null values,
 * unknown fields, numbers out of range or written as exponents, escapes in names...) throws
 * {@link Unsupported}, and the caller reads that resource with JsonFormat instead: the two give
 * equal bytes wherever this one answers ({@code FastProtoReaderTest}), and JsonFormat's messages
 * stay the ones users see.
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
      walk.text = null; // the thread keeps its buffers, not the document
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
   * One resource's walk over the text: a position, the bytes written, and per nesting level the
   * fields written so far (to refuse a field given twice and to put the fields in number order).
   * The text was checked whole by {@link JsonText}, so the walk only reads it.
   */
  private static final class Walk {
    final Out out = new Out();
    private Level[] levels = new Level[8];
    private int depth;
    /** The document being read; null between resources. */
    private byte @Nullable [] text;
    private int pos;
    /** Member names seen, each made once and interned (a small table by hash). */
    private final String[] names = new String[256];
    /** Short string values seen (enum names, type URLs), each made once. */
    private final String[] strings = new String[256];
    /** The UTF-8 bytes of each of {@link #names} and {@link #strings}, compared with the text's. */
    private final byte[][] nameBytes = new byte[256][];
    private final byte[][] stringBytes = new byte[256][];

    void start(byte[] text, int pos) {
      this.text = text;
      this.pos = pos;
      this.depth = 0;
      out.size = 0;
    }

    /** The {@code Any} at {@code pos}: its message's fields, {@code "@type"} naming the message. */
    void anyMessage() throws Unsupported {
      fields(descriptor(typeOfObject()), true);
    }

    /** The object at {@code pos}'s {@code "@type"} string (null without one), found without moving. */
    private String typeOfObject() throws Unsupported {
      int at = pos;
      if (text[pos] != '{') {
        throw new Unsupported("not an object");
      }
      pos++;
      space();
      String type = null;
      while (type == null && text[pos] != '}') {
        String name = name();
        space();
        pos++; // ':'
        space();
        if (!name.equals("@type")) {
          skipValue();
        } else if (text[pos] == '"') {
          type = string();
        } else {
          throw new Unsupported("@type not a string");
        }
        space();
        if (text[pos] == ',') {
          pos++;
          space();
        }
      }
      pos = at;
      return type;
    }

    /** The object at {@code pos} as the fields of {@code d}, in number order; {@code "@type"} skipped in an Any's. */
    private void fields(Descriptor d, boolean any) throws Unsupported {
      if (text[pos] != '{') {
        throw new Unsupported("not an object");
      }
      pos++;
      Level level = enter();
      Map<String, FieldDescriptor> byName = level.fieldsOf(d);
      int bodyStart = out.size;
      boolean inOrder = true;
      space();
      while (text[pos] != '}') {
        String name = name();
        space();
        pos++; // ':'
        space();
        if (any && name.equals("@type")) {
          skipValue();
        } else {
          FieldDescriptor f = byName.get(name);
          if (f == null || f.isMapField()) {
            throw new Unsupported("field " + name);
          }
          level.check(f);
          if (literal("null")) {
            throw new Unsupported("null");
          }
          inOrder &= level.count == 0 || level.fields[level.count - 1].getNumber() < f.getNumber();
          int start = out.size;
          field(f);
          level.add(f, start, out.size);
        }
        space();
        if (text[pos] == ',') {
          pos++;
          space();
        }
      }
      pos++;
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
      if (text[pos] != '[') {
        throw new Unsupported("not an array");
      }
      pos++;
      space();
      if (text[pos] == ']') {
        pos++;
        return;
      }
      int start = -1;
      if (f.isPacked()) {
        out.tag(f.getNumber(), WireFormat.WIRETYPE_LENGTH_DELIMITED);
        start = out.begin();
      }
      while (true) {
        if (start >= 0) {
          scalar(f, true);
        } else {
          value(f, true);
        }
        space();
        if (text[pos++] == ']') {
          break;
        }
        space();
      }
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
          return stringValue(always);
        }
        case BYTES -> {
          byte[] b;
          try {
            b = Base64.getDecoder().decode(requireString());
          } catch (IllegalArgumentException e) {
            throw new Unsupported("base64");
          }
          if (b.length == 0 && !always) {
            return false;
          }
          out.bytes(b);
        }
        case BOOL -> {
          boolean b = bool();
          if (!b && !always) {
            return false;
          }
          out.varint(b ? 1 : 0);
        }
        case INT32 -> {
          return varint(integer(Integer.MIN_VALUE, Integer.MAX_VALUE), always);
        }
        case UINT32 -> {
          return varint(integer(0, 0xFFFF_FFFFL), always);
        }
        case SINT32 -> {
          int i = (int) integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
          return varint((i << 1) ^ (i >> 31) & 0xFFFF_FFFFL, always);
        }
        case FIXED32, SFIXED32 -> {
          long i = f.getType() == FieldDescriptor.Type.FIXED32 ? integer(0, 0xFFFF_FFFFL)
              : integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
          if (i == 0 && !always) {
            return false;
          }
          out.fixed32((int) i);
        }
        case INT64 -> {
          return varint(integer(Long.MIN_VALUE, Long.MAX_VALUE), always);
        }
        case SINT64 -> {
          long i = integer(Long.MIN_VALUE, Long.MAX_VALUE);
          return varint((i << 1) ^ (i >> 63), always);
        }
        case SFIXED64 -> {
          long i = integer(Long.MIN_VALUE, Long.MAX_VALUE);
          if (i == 0 && !always) {
            return false;
          }
          out.fixed64(i);
        }
        case DOUBLE -> {
          long bits = Double.doubleToRawLongBits(decimal());
          if (bits == 0 && !always) {
            return false;
          }
          out.fixed64(bits);
        }
        case ENUM -> {
          EnumValueDescriptor e = text[pos] == '"' ? enumValue(f.getEnumType(), string())
              : f.getEnumType().findValueByNumber((int) integer(Integer.MIN_VALUE, Integer.MAX_VALUE));
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
        case "google.protobuf.UInt32Value" -> wrapped(1, integer(0, 0xFFFF_FFFFL));
        case "google.protobuf.Int32Value" -> wrapped(1, integer(Integer.MIN_VALUE, Integer.MAX_VALUE));
        case "google.protobuf.Int64Value" -> wrapped(1, integer(Long.MIN_VALUE, Long.MAX_VALUE));
        case "google.protobuf.BoolValue" -> wrapped(1, bool() ? 1 : 0);
        case "google.protobuf.StringValue" -> {
          int mark = out.size;
          out.tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
          if (!stringValue(false)) {
            out.size = mark;
          }
        }
        case "google.protobuf.DoubleValue" -> {
          long bits = Double.doubleToRawLongBits(decimal());
          if (bits != 0) {
            out.tag(1, WireFormat.WIRETYPE_FIXED64);
            out.fixed64(bits);
          }
        }
        case "google.protobuf.Duration" -> duration(requireString());
        case "google.protobuf.Any" -> {
          String type = typeOfObject();
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

    private boolean bool() throws Unsupported {
      if (literal("true")) {
        pos += "true".length();
        return true;
      }
      if (literal("false")) {
        pos += "false".length();
        return false;
      }
      throw new Unsupported("not a boolean");
    }

    /** Whether the literal {@code word} (true, false, null) is at {@code pos}: checked JSON, its first letter tells. */
    private boolean literal(String word) {
      return text[pos] == word.charAt(0);
    }

    /**
     * An integer written as digits, in a number or a string (proto3 JSON allows both); a string
     * with escapes, a fraction or an exponent is left to JsonFormat.
     */
    private long integer(long min, long max) throws Unsupported {
      int from;
      int to;
      if (text[pos] == '"') {
        from = pos + 1;
        to = from;
        while (text[to] != '"') {
          to++;
        }
        pos = to + 1;
      } else if (text[pos] == '-' || (text[pos] >= '0' && text[pos] <= '9')) {
        from = pos;
        to = numberEnd();
        pos = to;
      } else {
        throw new Unsupported("not an integer");
      }
      int length = to - from;
      if (length == 0 || length > 19) {
        throw new Unsupported("not an integer");
      }
      boolean negative = text[from] == '-';
      if (negative && length == 1) {
        throw new Unsupported("not plain digits");
      }
      long value = 0;
      for (int i = negative ? from + 1 : from; i < to; i++) {
        byte c = text[i];
        if (c < '0' || c > '9') {
          throw new Unsupported("not plain digits");
        }
        value = value * 10 + (c - '0'); // at most 18 digits after a sign, or 19 that may overflow: checked below
        if (value < 0) {
          throw new Unsupported("out of range");
        }
      }
      value = negative ? -value : value;
      if (value < min || value > max) {
        throw new Unsupported("out of range");
      }
      return value;
    }

    private double decimal() throws Unsupported {
      if (text[pos] != '-' && (text[pos] < '0' || text[pos] > '9')) {
        throw new Unsupported("not a number");
      }
      int from = pos;
      pos = numberEnd();
      return Double.parseDouble(new String(text, from, pos - from, StandardCharsets.ISO_8859_1));
    }

    /** After the number at {@code pos} (checked JSON: sign, digits, fraction, exponent). */
    private int numberEnd() {
      int i = pos;
      while (i < text.length) {
        byte c = text[i];
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
          i++;
        } else {
          break;
        }
      }
      return i;
    }

    /**
     * A string value, written as its length and UTF-8 bytes: without escapes, the text's own bytes
     * (UTF-8 that JsonText checked), with no String between. False, with nothing written, when it
     * is empty and {@code always} is false.
     */
    private boolean stringValue(boolean always) throws Unsupported {
      if (text[pos] != '"') {
        throw new Unsupported("not a string");
      }
      int from = pos + 1;
      int i = from;
      for (byte c = text[i]; c != '"'; c = text[++i]) {
        if (c == '\\') {
          out.string(string()); // escapes: decoded, then encoded
          return true;
        }
      }
      int length = i - from;
      pos = i + 1;
      if (length == 0 && !always) {
        return false;
      }
      out.raw(text, from, length);
      return true;
    }

    private String requireString() throws Unsupported {
      if (text[pos] != '"') {
        throw new Unsupported("not a string");
      }
      return string();
    }

    /** A member name at {@code pos}, interned; a name with escapes is left to JsonFormat. */
    private String name() throws Unsupported {
      int from = pos + 1;
      int hash = 0;
      int i = from;
      for (byte c = text[i]; c != '"'; c = text[++i]) {
        if (c == '\\') {
          throw new Unsupported("escapes in a member name");
        }
        hash = 31 * hash + c;
      }
      pos = i + 1;
      return known(names, nameBytes, from, i - from, hash, true);
    }

    /** The string at {@code pos} (an opening quote), its escapes decoded. */
    private String string() throws Unsupported {
      int from = pos + 1;
      int hash = 0;
      int i = from;
      for (byte c = text[i]; c != '"'; c = text[++i]) {
        if (c == '\\') {
          return decodeEscaped(from);
        }
        hash = 31 * hash + c;
      }
      pos = i + 1;
      // Short strings repeat (enum names, type URLs): each is made once.
      int length = i - from;
      return length <= 64 ? known(strings, stringBytes, from, length, hash, false)
          : new String(text, from, length, StandardCharsets.UTF_8);
    }

    /** The string from {@code from} to its closing quote, with escapes, decoded; {@code pos} after it. */
    private String decodeEscaped(int from) {
      StringBuilder decoded = new StringBuilder();
      int i = from;
      int run = from;
      while (text[i] != '"') {
        if (text[i] != '\\') {
          i++;
          continue;
        }
        decoded.append(new String(text, run, i - run, StandardCharsets.UTF_8));
        byte e = text[i + 1];
        i += 2;
        switch (e) {
          case 'b' -> decoded.append('\b');
          case 'f' -> decoded.append('\f');
          case 'n' -> decoded.append('\n');
          case 'r' -> decoded.append('\r');
          case 't' -> decoded.append('\t');
          case 'u' -> {
            decoded.append((char) Integer.parseInt(new String(text, i, 4, StandardCharsets.ISO_8859_1), 16));
            i += 4;
          }
          default -> decoded.append((char) e); // " \ /
        }
        run = i;
      }
      decoded.append(new String(text, run, i - run, StandardCharsets.UTF_8));
      pos = i + 1;
      return decoded.toString();
    }

    /**
     * The {@code length} bytes at {@code from} as a String made once per thread: a slot of
     * {@code table}, its bytes in {@code bytes}.
     */
    private String known(String[] table, byte[][] bytes, int from, int length, int hash, boolean intern) {
      int slot = (hash ^ (hash >>> 16)) & (table.length - 1);
      String s = table[slot];
      if (s == null || !sameAs(bytes[slot], from, length)) {
        s = new String(text, from, length, StandardCharsets.UTF_8);
        if (intern) {
          // Interned, as the field tables' names are: a lookup finds the same instance.
          s = s.intern();
        }
        table[slot] = s;
        bytes[slot] = Arrays.copyOfRange(text, from, from + length);
      }
      return s;
    }

    private boolean sameAs(byte[] known, int from, int length) {
      if (known.length != length) {
        return false;
      }
      for (int i = 0; i < length; i++) {
        if (known[i] != text[from + i]) {
          return false;
        }
      }
      return true;
    }

    /** Past the value at {@code pos}. */
    private void skipValue() {
      byte c = text[pos];
      if (c == '"') {
        pos++;
        while (text[pos] != '"') {
          pos += text[pos] == '\\' ? 2 : 1;
        }
        pos++;
      } else if (c == '{' || c == '[') {
        int nesting = 0;
        do {
          byte d = text[pos];
          if (d == '"') {
            skipValue();
            continue;
          }
          if (d == '{' || d == '[') {
            nesting++;
          } else if (d == '}' || d == ']') {
            nesting--;
          }
          pos++;
        } while (nesting > 0);
      } else {
        while (pos < text.length && !endsValue(text[pos])) {
          pos++;
        }
      }
    }

    private static boolean endsValue(byte c) {
      return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private void space() {
      while (pos < text.length) {
        byte c = text[pos];
        if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
          return;
        }
        pos++;
      }
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
    void sortInto(Out out, int bodyStart) {
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

  /** A growing buffer of wire bytes; a nested message is written in place and its length put before it. */
  private static final class Out {
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
}
