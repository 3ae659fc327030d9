package io.jxds.toolkit.internal.read;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds a resource's proto straight from the JSON tree that {@link JsonText} already parsed, by the
 * generated message classes' descriptors: what protobuf's JsonFormat does for the shapes xDS
 * resources use (messages, repeated fields, scalars, enums by name or number, wrapper types,
 * durations, nested {@code Any}s), without re-reading the text or going through DynamicMessage.
 * Anything else (maps, Struct, Timestamp, null values, unknown fields, numbers out of range or
 * written as exponents...) throws {@link Unsupported}, and the caller reads that resource with
 * JsonFormat instead: the two give equal protos wherever this one answers ({@code
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
  private static final Map<Descriptor, Message> PROTOTYPES = new ConcurrentHashMap<>();

  private final String text;

  FastProtoReader(String text) {
    this.text = text;
  }

  /** The message of an {@code Any}'s JSON ({@code "@type"} and the message's fields). */
  Message readAny(JsonNode n) throws Unsupported {
    String type = n.stringMember("@type");
    if (type == null) {
      throw new Unsupported("no @type");
    }
    Descriptor d = MessageTypes.find(type).orElseThrow(() -> new Unsupported("unknown type"));
    if (isWellKnown(d)) {
      throw new Unsupported("a well-known type in an Any");
    }
    Message.Builder b = prototype(d).newBuilderForType();
    fields(n, b, true);
    return b.build();
  }

  private void fields(JsonNode n, Message.Builder b, boolean skipType) throws Unsupported {
    if (!n.isObject()) {
      throw new Unsupported("not an object");
    }
    Map<String, FieldDescriptor> byName = fieldsOf(b.getDescriptorForType());
    List<FieldDescriptor> seen = new ArrayList<>(n.members().size());
    for (Map.Entry<String, JsonNode> m : n.members().entrySet()) {
      if (skipType && m.getKey().equals("@type")) {
        continue;
      }
      FieldDescriptor f = byName.get(m.getKey());
      if (f == null || f.isMapField() || seen.contains(f)) {
        throw new Unsupported("field " + m.getKey());
      }
      seen.add(f);
      JsonNode v = m.getValue();
      if (v.kind() == JsonNode.Kind.LITERAL && text.startsWith("null", v.start())) {
        throw new Unsupported("null");
      }
      if (f.isRepeated()) {
        if (!v.isArray()) {
          throw new Unsupported("not an array");
        }
        for (JsonNode e : v.elements()) {
          b.addRepeatedField(f, value(f, e, b));
        }
      } else {
        if (f.getContainingOneof() != null && b.hasOneof(f.getContainingOneof())) {
          throw new Unsupported("two fields of a oneof");
        }
        b.setField(f, value(f, v, b));
      }
    }
  }

  private Object value(FieldDescriptor f, JsonNode v, Message.Builder parent) throws Unsupported {
    switch (f.getJavaType()) {
      case MESSAGE -> {
        return message(f.getMessageType(), v, parent.newBuilderForField(f));
      }
      case STRING -> {
        return string(v);
      }
      case BOOLEAN -> {
        return bool(v);
      }
      case INT -> {
        boolean unsigned = f.getType() == FieldDescriptor.Type.UINT32 || f.getType() == FieldDescriptor.Type.FIXED32;
        return (int) integer(v, unsigned ? 0 : Integer.MIN_VALUE, unsigned ? 0xFFFF_FFFFL : Integer.MAX_VALUE);
      }
      case LONG -> {
        if (f.getType() == FieldDescriptor.Type.UINT64 || f.getType() == FieldDescriptor.Type.FIXED64) {
          throw new Unsupported("uint64");
        }
        return integer(v, Long.MIN_VALUE, Long.MAX_VALUE);
      }
      case DOUBLE -> {
        return decimal(v);
      }
      case FLOAT -> {
        throw new Unsupported("float");
      }
      case ENUM -> {
        EnumValueDescriptor e = v.kind() == JsonNode.Kind.STRING ? f.getEnumType().findValueByName(v.string())
            : f.getEnumType().findValueByNumber((int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
        if (e == null) {
          throw new Unsupported("enum value");
        }
        return e;
      }
      case BYTE_STRING -> {
        try {
          return ByteString.copyFrom(Base64.getDecoder().decode(string(v)));
        } catch (IllegalArgumentException e) {
          throw new Unsupported("base64");
        }
      }
      default -> throw new Unsupported(f.getJavaType().name());
    }
  }

  /** A message field's value: well-known wrappers and durations as proto3 JSON writes them. */
  private Message message(Descriptor d, JsonNode v, Message.Builder b) throws Unsupported {
    String name = d.getFullName();
    switch (name) {
      case "google.protobuf.UInt32Value" -> {
        return b.setField(d.findFieldByNumber(1), (int) integer(v, 0, 0xFFFF_FFFFL)).build();
      }
      case "google.protobuf.Int32Value" -> {
        return b.setField(d.findFieldByNumber(1), (int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE)).build();
      }
      case "google.protobuf.Int64Value" -> {
        return b.setField(d.findFieldByNumber(1), integer(v, Long.MIN_VALUE, Long.MAX_VALUE)).build();
      }
      case "google.protobuf.BoolValue" -> {
        return b.setField(d.findFieldByNumber(1), bool(v)).build();
      }
      case "google.protobuf.StringValue" -> {
        return b.setField(d.findFieldByNumber(1), string(v)).build();
      }
      case "google.protobuf.DoubleValue" -> {
        return b.setField(d.findFieldByNumber(1), decimal(v)).build();
      }
      case "google.protobuf.Duration" -> {
        return duration(string(v));
      }
      case "google.protobuf.Any" -> {
        Message inner = readAny(v);
        return com.google.protobuf.Any.newBuilder().setTypeUrl(v.stringMember("@type"))
            .setValue(inner.toByteString()).build();
      }
      default -> {
        if (isWellKnown(d)) {
          throw new Unsupported(name);
        }
        fields(v, b, false);
        return b.build();
      }
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
    String digits = v.kind() == JsonNode.Kind.NUMBER ? v.text(text) : v.kind() == JsonNode.Kind.STRING ? v.string()
        : null;
    if (digits == null || digits.isEmpty() || digits.length() > 19) {
      throw new Unsupported("not an integer");
    }
    for (int i = 0; i < digits.length(); i++) {
      char c = digits.charAt(i);
      if ((c < '0' || c > '9') && !(i == 0 && c == '-' && digits.length() > 1)) {
        throw new Unsupported("not plain digits");
      }
    }
    long value;
    try {
      value = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new Unsupported("out of range");
    }
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
  private static Duration duration(String s) throws Unsupported {
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
    return Duration.newBuilder().setSeconds(seconds).setNanos(nanos).build();
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
        m.put(f.getName(), f);
        m.put(f.getJsonName(), f);
      }
      return m;
    });
  }

  /** The generated class's default instance, whose builders are far faster than DynamicMessage's. */
  private static Message prototype(Descriptor d) throws Unsupported {
    Message m = PROTOTYPES.get(d);
    if (m == null) {
      m = MessageTypes.defaultInstance(d.getFullName()).orElse(null);
      if (m == null) {
        throw new Unsupported("no generated class");
      }
      PROTOTYPES.put(d, m);
    }
    return m;
  }

}
