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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a resource's proto wire bytes straight from the JSON tree that {@link JsonText} already
 * parsed, by the generated message classes' descriptors: what protobuf's JsonFormat and then
 * {@code toByteString} give for the shapes xDS resources use (messages, repeated fields, scalars,
 * enums by name or number, wrapper types, durations, nested {@code Any}s), fields in number order
 * as protobuf writes them, without building a message. Anything else (maps, Struct, Timestamp,
 * null values, unknown fields, numbers out of range or written as exponents...) throws
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
  private static final char[] TRUE = "true".toCharArray();
  private static final char[] FALSE = "false".toCharArray();
  private static final char[] NULL = "null".toCharArray();
  /** Each thread's buffer, reused resource after resource: only the finished bytes are copied out. */
  private static final ThreadLocal<Out> BUFFER = ThreadLocal.withInitial(Out::new);

  /** The document's characters (JsonText's): numbers and literals are read from them in place. */
  private final char[] text;

  FastProtoReader(char[] text) {
    this.text = text;
  }

  /** The message of an {@code Any}'s JSON ({@code "@type"} and the message's fields), as its wire bytes. */
  ByteString readAnyBytes(JsonNode n) throws Unsupported {
    Out out = BUFFER.get();
    out.size = 0;
    anyMessage(n, out);
    return ByteString.copyFrom(out.buf, 0, out.size);
  }

  /** {@link #readAnyBytes} parsed into the generated message (for tests). */
  Message readAny(JsonNode n) throws Unsupported {
    ByteString bytes = readAnyBytes(n);
    Message prototype = MessageTypes.defaultInstance(descriptor(n).getFullName()).orElseThrow();
    try {
      return prototype.getParserForType().parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Descriptor descriptor(JsonNode n) throws Unsupported {
    String type = n.stringMember("@type");
    if (type == null) {
      throw new Unsupported("no @type");
    }
    Descriptor d = MessageTypes.find(type).orElseThrow(() -> new Unsupported("unknown type"));
    if (isWellKnown(d)) {
      throw new Unsupported("a well-known type in an Any");
    }
    return d;
  }

  private void anyMessage(JsonNode n, Out out) throws Unsupported {
    fields(descriptor(n), n, true, out);
  }

  private void fields(Descriptor d, JsonNode n, boolean skipType, Out out) throws Unsupported {
    if (!n.isObject()) {
      throw new Unsupported("not an object");
    }
    Map<String, FieldDescriptor> byName = fieldsOf(d);
    Members members = n.memberList();
    FieldDescriptor[] fields = new FieldDescriptor[members.size()];
    JsonNode[] values = new JsonNode[members.size()];
    int count = 0;
    boolean inOrder = true;
    for (int m = 0; m < members.size(); m++) {
      String key = members.key(m);
      if (skipType && key.equals("@type")) {
        continue;
      }
      FieldDescriptor f = byName.get(key);
      if (f == null || f.isMapField()) {
        throw new Unsupported("field " + key);
      }
      for (int i = 0; i < count; i++) {
        FieldDescriptor g = fields[i];
        if (g == f) {
          throw new Unsupported("field " + key + " twice");
        }
        if (f.getContainingOneof() != null && g.getContainingOneof() == f.getContainingOneof()) {
          throw new Unsupported("two fields of a oneof");
        }
      }
      JsonNode v = members.value(m);
      if (v.kind() == JsonNode.Kind.LITERAL && matches(NULL, v.start())) {
        throw new Unsupported("null");
      }
      inOrder &= count == 0 || fields[count - 1].getNumber() < f.getNumber();
      fields[count] = f;
      values[count++] = v;
    }
    if (!inOrder) {
      sortByNumber(fields, values, count);
    }
    for (int i = 0; i < count; i++) {
      field(fields[i], values[i], out);
    }
  }

  /** Protobuf writes a message's fields in number order; an insertion sort (a message has few fields). */
  private static void sortByNumber(FieldDescriptor[] fields, JsonNode[] values, int count) {
    for (int i = 1; i < count; i++) {
      FieldDescriptor f = fields[i];
      JsonNode v = values[i];
      int j = i - 1;
      for (; j >= 0 && fields[j].getNumber() > f.getNumber(); j--) {
        fields[j + 1] = fields[j];
        values[j + 1] = values[j];
      }
      fields[j + 1] = f;
      values[j + 1] = v;
    }
  }

  private void field(FieldDescriptor f, JsonNode v, Out out) throws Unsupported {
    if (f.isRepeated()) {
      if (!v.isArray()) {
        throw new Unsupported("not an array");
      }
      List<JsonNode> elements = v.elements();
      if (elements.isEmpty()) {
        return;
      }
      if (f.isPacked()) {
        out.tag(f.getNumber(), WireFormat.WIRETYPE_LENGTH_DELIMITED);
        int start = out.begin();
        for (JsonNode e : elements) {
          scalar(f, e, out, true);
        }
        out.end(start);
      } else {
        for (JsonNode e : elements) {
          value(f, e, out, true);
        }
      }
      return;
    }
    value(f, v, out, f.hasPresence());
  }

  /** One value with its tag; a scalar without presence is left out when it is its default, as protobuf does. */
  private void value(FieldDescriptor f, JsonNode v, Out out, boolean always) throws Unsupported {
    if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      out.tag(f.getNumber(), WireFormat.WIRETYPE_LENGTH_DELIMITED);
      int start = out.begin();
      message(f.getMessageType(), v, out);
      out.end(start);
      return;
    }
    int mark = out.size;
    out.tag(f.getNumber(), f.getLiteType().getWireType());
    if (!scalar(f, v, out, always)) {
      out.size = mark; // the default: not written
    }
  }

  /** Writes a scalar's value (no tag); false when it is the default and {@code always} is false. */
  private boolean scalar(FieldDescriptor f, JsonNode v, Out out, boolean always) throws Unsupported {
    switch (f.getType()) {
      case STRING -> {
        String s = string(v);
        if (s.isEmpty() && !always) {
          return false;
        }
        out.string(s);
      }
      case BYTES -> {
        byte[] b;
        try {
          b = Base64.getDecoder().decode(string(v));
        } catch (IllegalArgumentException e) {
          throw new Unsupported("base64");
        }
        if (b.length == 0 && !always) {
          return false;
        }
        out.bytes(b);
      }
      case BOOL -> {
        boolean b = bool(v);
        if (!b && !always) {
          return false;
        }
        out.varint(b ? 1 : 0);
      }
      case INT32 -> {
        return varint(integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE), out, always);
      }
      case UINT32 -> {
        return varint(integer(v, 0, 0xFFFF_FFFFL), out, always);
      }
      case SINT32 -> {
        int i = (int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
        return varint((i << 1) ^ (i >> 31) & 0xFFFF_FFFFL, out, always);
      }
      case FIXED32, SFIXED32 -> {
        long i = f.getType() == FieldDescriptor.Type.FIXED32 ? integer(v, 0, 0xFFFF_FFFFL)
            : integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
        if (i == 0 && !always) {
          return false;
        }
        out.fixed32((int) i);
      }
      case INT64 -> {
        return varint(integer(v, Long.MIN_VALUE, Long.MAX_VALUE), out, always);
      }
      case SINT64 -> {
        long i = integer(v, Long.MIN_VALUE, Long.MAX_VALUE);
        return varint((i << 1) ^ (i >> 63), out, always);
      }
      case SFIXED64 -> {
        long i = integer(v, Long.MIN_VALUE, Long.MAX_VALUE);
        if (i == 0 && !always) {
          return false;
        }
        out.fixed64(i);
      }
      case DOUBLE -> {
        long bits = Double.doubleToRawLongBits(decimal(v));
        if (bits == 0 && !always) {
          return false;
        }
        out.fixed64(bits);
      }
      case ENUM -> {
        EnumValueDescriptor e = v.kind() == JsonNode.Kind.STRING ? enumValue(f.getEnumType(), v.string())
            : f.getEnumType().findValueByNumber((int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
        if (e == null) {
          throw new Unsupported("enum value");
        }
        return varint(e.getNumber(), out, always);
      }
      default -> throw new Unsupported(f.getType().name()); // uint64, fixed64, float, group
    }
    return true;
  }

  /** An int32, uint32 or int64 as protobuf writes it (a negative int32 sign-extended to ten bytes). */
  private static boolean varint(long value, Out out, boolean always) {
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
  private void message(Descriptor d, JsonNode v, Out out) throws Unsupported {
    String name = d.getFullName();
    switch (name) {
      case "google.protobuf.UInt32Value" -> wrapped(1, integer(v, 0, 0xFFFF_FFFFL), out);
      case "google.protobuf.Int32Value" -> wrapped(1, integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE), out);
      case "google.protobuf.Int64Value" -> wrapped(1, integer(v, Long.MIN_VALUE, Long.MAX_VALUE), out);
      case "google.protobuf.BoolValue" -> wrapped(1, bool(v) ? 1 : 0, out);
      case "google.protobuf.StringValue" -> {
        String s = string(v);
        if (!s.isEmpty()) {
          out.tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
          out.string(s);
        }
      }
      case "google.protobuf.DoubleValue" -> {
        long bits = Double.doubleToRawLongBits(decimal(v));
        if (bits != 0) {
          out.tag(1, WireFormat.WIRETYPE_FIXED64);
          out.fixed64(bits);
        }
      }
      case "google.protobuf.Duration" -> duration(string(v), out);
      case "google.protobuf.Any" -> {
        String type = v.stringMember("@type");
        if (type == null) {
          throw new Unsupported("no @type");
        }
        out.tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.string(type);
        int mark = out.size;
        out.tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        int start = out.begin();
        anyMessage(v, out);
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
        fields(d, v, false, out);
      }
    }
  }

  private static void wrapped(int number, long value, Out out) {
    if (value != 0) {
      out.tag(number, WireFormat.WIRETYPE_VARINT);
      out.varint(value);
    }
  }

  private static boolean isWellKnown(Descriptor d) {
    return d.getFullName().startsWith("google.protobuf.");
  }

  private static String string(JsonNode v) throws Unsupported {
    if (v.kind() != JsonNode.Kind.STRING) {
      throw new Unsupported("not a string");
    }
    return v.string();
  }

  private boolean bool(JsonNode v) throws Unsupported {
    if (v.kind() == JsonNode.Kind.LITERAL) {
      if (matches(TRUE, v.start())) {
        return true;
      }
      if (matches(FALSE, v.start())) {
        return false;
      }
    }
    throw new Unsupported("not a boolean");
  }

  /** An integer written as digits, in a number or a string (proto3 JSON allows both). */
  private long integer(JsonNode v, long min, long max) throws Unsupported {
    int from;
    int to;
    char[] s;
    if (v.kind() == JsonNode.Kind.NUMBER) {
      s = text;
      from = v.start();
      to = v.end();
    } else if (v.kind() == JsonNode.Kind.STRING) {
      s = v.string().toCharArray();
      from = 0;
      to = s.length;
    } else {
      throw new Unsupported("not an integer");
    }
    int length = to - from;
    if (length == 0 || length > 19) {
      throw new Unsupported("not an integer");
    }
    boolean negative = s[from] == '-';
    if (negative && length == 1) {
      throw new Unsupported("not plain digits");
    }
    long value = 0;
    for (int i = negative ? from + 1 : from; i < to; i++) {
      char c = s[i];
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

  private double decimal(JsonNode v) throws Unsupported {
    if (v.kind() != JsonNode.Kind.NUMBER) {
      throw new Unsupported("not a number");
    }
    return Double.parseDouble(new String(text, v.start(), v.end() - v.start()));
  }

  /** {@code "1.5s"}: seconds with up to nine fractional digits, as proto3 JSON writes a Duration. */
  private static void duration(String s, Out out) throws Unsupported {
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
    wrapped(1, seconds, out);
    wrapped(2, nanos, out);
  }

  /** Whether {@code word} is written at {@code at}. */
  private boolean matches(char[] word, int at) {
    if (at + word.length > text.length) {
      return false;
    }
    for (int i = 0; i < word.length; i++) {
      if (text[at + i] != word[i]) {
        return false;
      }
    }
    return true;
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

  private static boolean digits(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** The JSON names of a message's fields: proto3 JSON's lowerCamelCase and the proto name. */
  private static Map<String, FieldDescriptor> fieldsOf(Descriptor d) {
    return FIELDS.computeIfAbsent(d, k -> {
      Map<String, FieldDescriptor> m = new HashMap<>();
      for (FieldDescriptor f : k.getFields()) {
        // Interned, as JsonText's member names are (a lookup compares the same instance).
        m.put(f.getName().intern(), f);
        m.put(f.getJsonName().intern(), f);
      }
      return m;
    });
  }

  /** A growing buffer of wire bytes; a nested message is written in place and its length put before it. */
  private static final class Out {
    byte[] buf = new byte[256];
    int size;

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

    /** A string as UTF-8 with its length; ASCII (addresses, names) is written without a byte[] between. */
    void string(String s) {
      int length = s.length();
      for (int i = 0; i < length; i++) {
        if (s.charAt(i) >= 0x80) {
          bytes(s.getBytes(StandardCharsets.UTF_8));
          return;
        }
      }
      varint(length);
      ensure(length);
      for (int i = 0; i < length; i++) {
        buf[size++] = (byte) s.charAt(i);
      }
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
