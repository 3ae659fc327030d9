package io.jxds.api;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.jxds.api.internal.ResourceDecoding;
import io.jxds.api.internal.UnpackedResource;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Describes one xDS resource type once: its type URL, how to read a resource's name, how to
 * validate it into a model value, and whether absence from a state-of-the-world response means
 * the resource was deleted. Adding a type (LDS, RDS) to the client is one new descriptor; the
 * built-in ones are in {@link ResourceTypes}.
 *
 * @param <T> the immutable model value watchers receive
 */
public final class ResourceType<T> {
  /** The type URL of the {@code envoy.service.discovery.v3.Resource} wrapper. */
  public static final String RESOURCE_WRAPPER_TYPE_URL =
      "type.googleapis.com/envoy.service.discovery.v3.Resource";

  /**
   * Validates one unpacked message into a model value.
   *
   * @param <M> the protobuf message the {@code Any} holds
   * @param <T> the model value
   */
  @FunctionalInterface
  public interface Decoder<M, T> {
    /**
     * Validates a message.
     *
     * @param message the resource as received
     * @return the immutable model value
     * @throws XdsResourceException if the message breaks a validation rule; its message becomes the
     *     NACK's {@code error_detail}
     */
    T decode(M message) throws XdsResourceException;
  }

  private final String typeUrl;
  private final String shortName;
  private final boolean absenceMeansDeletion;
  private final Class<? extends Message> messageClass;
  private final Parser<? extends Message> parser;
  private final Function<Message, String> nameOf;
  private final Decoder<Message, T> decoder;
  // Optional: validates straight from the Any's bytes, skipping the message tree (EDS);
  // returns null for "not sure", never throws.
  private final @Nullable Function<ByteString, @Nullable T> bytesDecoder;
  private final @Nullable Function<T, String> nameOfValue;

  private ResourceType(
      String typeUrl,
      String shortName,
      boolean absenceMeansDeletion,
      Class<? extends Message> messageClass,
      Function<Message, String> nameOf,
      Decoder<Message, T> decoder,
      @Nullable Function<ByteString, @Nullable T> bytesDecoder,
      @Nullable Function<T, String> nameOfValue) {
    this.typeUrl = typeUrl;
    this.shortName = shortName;
    this.absenceMeansDeletion = absenceMeansDeletion;
    this.messageClass = messageClass;
    this.parser = parserOf(messageClass);
    this.nameOf = nameOf;
    this.decoder = decoder;
    this.bytesDecoder = bytesDecoder;
    this.nameOfValue = nameOfValue;
  }

  /**
   * Creates a descriptor.
   *
   * @param <M> the protobuf message the {@code Any} holds
   * @param <T> the model value watchers receive
   * @param typeUrl e.g. {@code type.googleapis.com/envoy.config.cluster.v3.Cluster}
   * @param shortName used in logs and errors, e.g. {@code CDS}
   * @param absenceMeansDeletion true for state-of-the-world types whose responses carry every
   *     subscribed resource (CDS, LDS); false for EDS and RDS, where a missing name means unchanged
   * @param messageClass the protobuf message the {@code Any} holds
   * @param nameOf reads the resource's name from the message
   * @param decoder validates the message into the model value
   * @return the descriptor, to pass to {@link XdsClient#watch}
   */
  @SuppressWarnings("unchecked")
  public static <M extends Message, T> ResourceType<T> of(
      String typeUrl,
      String shortName,
      boolean absenceMeansDeletion,
      Class<M> messageClass,
      Function<? super M, String> nameOf,
      Decoder<? super M, ? extends T> decoder) {
    Objects.requireNonNull(typeUrl, "typeUrl");
    Objects.requireNonNull(shortName, "shortName");
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(nameOf, "nameOf");
    Objects.requireNonNull(decoder, "decoder");
    return new ResourceType<>(
        typeUrl,
        shortName,
        absenceMeansDeletion,
        messageClass,
        m -> nameOf.apply((M) m),
        m -> decoder.decode((M) m),
        null,
        null);
  }

  /**
   * This type with a decoder that reads the {@code Any}'s bytes directly and answers empty when it
   * is not sure. {@code ResourceDecoding.unpack} tries it first: when it answers, the resource is decoded already
   * and named by {@code nameOfValue} (unless a {@code Resource} wrapper named it); when it is empty,
   * unpacking goes the usual way (parse, then decode on demand), so a parse error or a NACK reads
   * exactly as without it. It must give the value the usual path would, and never throw.
   */
  ResourceType<T> withBytesDecoder(
      Function<ByteString, ? extends Optional<? extends T>> bytes, Function<? super T, String> nameOfValue) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(nameOfValue, "nameOfValue");
    return new ResourceType<>(
        typeUrl,
        shortName,
        absenceMeansDeletion,
        messageClass,
        nameOf,
        decoder,
        b -> bytes.apply(b).orElse(null),
        nameOfValue::apply);
  }

  /**
   * The type URL of this type's resources.
   *
   * @return e.g. {@code type.googleapis.com/envoy.config.cluster.v3.Cluster}
   */
  public String typeUrl() {
    return typeUrl;
  }

  /**
   * The name logs and errors use for this type.
   *
   * @return e.g. {@code CDS}
   */
  public String shortName() {
    return shortName;
  }

  /**
   * Whether a state-of-the-world response that leaves out a subscribed resource deletes it.
   *
   * @return true for CDS and LDS, false for EDS and RDS
   */
  public boolean absenceMeansDeletion() {
    return absenceMeansDeletion;
  }

  // Unpacking is the client's business, not the user's: see ResourceDecoding.
  static {
    ResourceDecoding.install(
        new ResourceDecoding.Access() {
          @Override
          public <T> UnpackedResource<T> unpack(ResourceType<T> type, Any any) throws XdsResourceException {
            return type.unpackAny(any);
          }
        });
  }

  private UnpackedResource<T> unpackAny(Any any) throws XdsResourceException {
    String wrapperName = null;
    Any inner = any;
    if (RESOURCE_WRAPPER_TYPE_URL.equals(any.getTypeUrl())) {
      Resource wrapper = (Resource) parse(any, Resource.parser(), Resource.class, null);
      if (!wrapper.hasResource()) {
        throw new XdsResourceException(
            emptyToNull(wrapper.getName()),
            "Resource wrapper " + quote(wrapper.getName()) + ": resource is not set");
      }
      wrapperName = wrapper.getName();
      inner = wrapper.getResource();
    }
    if (!typeUrl.equals(inner.getTypeUrl())) {
      throw new XdsResourceException(
          emptyToNull(wrapperName),
          shortName + " response: type_url must be " + typeUrl + ", got " + quote(inner.getTypeUrl()));
    }
    Function<ByteString, @Nullable T> bytes = bytesDecoder;
    Function<T, String> nameOfBytes = nameOfValue; // set together with bytesDecoder
    if (bytes != null && nameOfBytes != null) {
      T value = tryBytes(bytes, inner.getValue());
      if (value != null) {
        String name = wrapperName == null || wrapperName.isEmpty() ? nameOfBytes.apply(value) : wrapperName;
        return new Decoded<>(name, value);
      }
    }
    Message message = parse(inner, parser, messageClass, wrapperName);
    String name = wrapperName == null || wrapperName.isEmpty() ? nameOf.apply(message) : wrapperName;
    return new Unpacked<>(name, message, decoder);
  }

  /** The value, or null to take the usual path (which reproduces any error with its message). */
  private static <T> @Nullable T tryBytes(Function<ByteString, @Nullable T> decoder, ByteString bytes) {
    try {
      return decoder.apply(bytes);
    } catch (RuntimeException e) {
      return null;
    }
  }

  // The caller has checked the type URL. Parsing the value with the message's parser, rather than
  // Any.unpack(Class), skips a reflective getDefaultInstance lookup per call: about 1 µs, as much
  // as parsing a small Cluster.
  private static Message parse(
      Any any, Parser<? extends Message> parser, Class<? extends Message> type, @Nullable String nameIfKnown)
      throws XdsResourceException {
    try {
      return parser.parseFrom(any.getValue());
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new XdsResourceException(
          emptyToNull(nameIfKnown),
          "cannot decode " + type.getSimpleName() + " from " + any.getTypeUrl() + ": " + e.getMessage(),
          e);
    }
  }

  /** The generated message's parser, found once through its static {@code getDefaultInstance()}. */
  private static Parser<? extends Message> parserOf(Class<? extends Message> messageClass) {
    try {
      return ((Message) messageClass.getMethod("getDefaultInstance").invoke(null)).getParserForType();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalArgumentException(messageClass + " is not a generated protobuf message", e);
    }
  }

  private static @Nullable String emptyToNull(@Nullable String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }

  @Override
  public String toString() {
    return shortName + "(" + typeUrl + ")";
  }

  /** A resource the bytes decoder already validated: decoding it again would give the same value. */
  private record Decoded<T>(String name, T value) implements UnpackedResource<T> {
    @Override
    public T decode() {
      return value;
    }
  }

  private record Unpacked<T>(String name, Message message, Decoder<Message, T> decoder)
      implements UnpackedResource<T> {
    @Override
    public T decode() throws XdsResourceException {
      return decoder.decode(message);
    }
  }
}
