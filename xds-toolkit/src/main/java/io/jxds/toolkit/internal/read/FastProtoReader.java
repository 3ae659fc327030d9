package io.jxds.toolkit.internal.read;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
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
  private static final Comparator<Member> BY_NUMBER = Comparator.comparingInt(m -> m.field().getNumber());

  private final String text;

  FastProtoReader(String text) {
    this.text = text;
  }

  /** A field of an object and its JSON value. */
  private record Member(FieldDescriptor field, JsonNode value) {}

  /** The message of an {@code Any}'s JSON ({@code "@type"} and the message's fields), as its wire bytes. */
  ByteString readAnyBytes(JsonNode n) throws Unsupported {
    Out out = new Out();
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
    Member[] members = new Member[n.members().size()];
    int count = 0;
    for (Map.Entry<String, JsonNode> m : n.members().entrySet()) {
      if (skipType && m.getKey().equals("@type")) {
        continue;
      }
      FieldDescriptor f = byName.get(m.getKey());
      if (f == null || f.isMapField()) {
        throw new Unsupported("field " + m.getKey());
      }
      for (int i = 0; i < count; i++) {
        FieldDescriptor g = members[i].field();
        if (g == f) {
          throw new Unsupported("field " + m.getKey() + " twice");
        }
        if (f.getContainingOneof() != null && g.getContainingOneof() == f.getContainingOneof()) {
          throw new Unsupported("two fields of a oneof");
        }
      }
      JsonNode v = m.getValue();
      if (v.kind() == JsonNode.Kind.LITERAL && text.startsWith("null", v.start())) {
        throw new Unsupported("null");
      }
      members[count++] = new Member(f, v);
    }
    if (count > 1) {
      Arrays.sort(members, 0, count, BY_NUMBER);
    }
    for (int i = 0; i < count; i++) {
      field(members[i].field(), members[i].value(), out);
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
        out.bytes(s.getBytes(StandardCharsets.UTF_8));
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
        EnumValueDescriptor e = v.kind() == JsonNode.Kind.STRING ? f.getEnumType().findValueByName(v.string())
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
          out.bytes(s.getBytes(StandardCharsets.UTF_8));
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
        out.bytes(type.getBytes(StandardCharsets.UTF_8));
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
      if (text.startsWith("true", v.start())) {
        return true;
      }
      if (text.startsWith("false", v.start())) {
        return false;
      }
    }
    throw new Unsupported("not a boolean");
  }

  /** An integer written as digits, in a number or a string (proto3 JSON allows both). */
  private long integer(JsonNode v, long min, long max) throws Unsupported {
    int from;
    int to;
    String s;
    if (v.kind() == JsonNode.Kind.NUMBER) {
      s = text;
      from = v.start();
      to = v.end();
    } else if (v.kind() == JsonNode.Kind.STRING) {
      s = v.string();
      from = 0;
      to = s.length();
    } else {
      throw new Unsupported("not an integer");
    }
    int length = to - from;
    if (length == 0 || length > 19) {
      throw new Unsupported("not an integer");
    }
    boolean negative = s.charAt(from) == '-';
    if (negative && length == 1) {
      throw new Unsupported("not plain digits");
    }
    long value = 0;
    for (int i = negative ? from + 1 : from; i < to; i++) {
      char c = s.charAt(i);
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
    return Double.parseDouble(v.text(text));
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
