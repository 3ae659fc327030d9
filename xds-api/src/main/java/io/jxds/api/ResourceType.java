package io.jxds.api;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.jxds.api.decode.XdsResourceException;
import java.util.Objects;
import java.util.function.Function;

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

  /** Validates one unpacked message into a model value. */
  @FunctionalInterface
  public interface Decoder<M, T> {
    T decode(M message) throws XdsResourceException;
  }

  private final String typeUrl;
  private final String shortName;
  private final boolean absenceMeansDeletion;
  private final Class<? extends Message> messageClass;
  private final Parser<? extends Message> parser;
  private final Function<Message, String> nameOf;
  private final Decoder<Message, T> decoder;

  private ResourceType(
      String typeUrl,
      String shortName,
      boolean absenceMeansDeletion,
      Class<? extends Message> messageClass,
      Function<Message, String> nameOf,
      Decoder<Message, T> decoder) {
    this.typeUrl = typeUrl;
    this.shortName = shortName;
    this.absenceMeansDeletion = absenceMeansDeletion;
    this.messageClass = messageClass;
    this.parser = parserOf(messageClass);
    this.nameOf = nameOf;
    this.decoder = decoder;
  }

  /**
   * Creates a descriptor.
   *
   * @param typeUrl e.g. {@code type.googleapis.com/envoy.config.cluster.v3.Cluster}
   * @param shortName used in logs and errors, e.g. {@code CDS}
   * @param absenceMeansDeletion true for state-of-the-world types whose responses carry every
   *     subscribed resource (CDS, LDS); false for EDS and RDS, where a missing name means unchanged
   * @param messageClass the protobuf message the {@code Any} holds
   * @param nameOf reads the resource's name from the message
   * @param decoder validates the message into the model value
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
        m -> decoder.decode((M) m));
  }

  public String typeUrl() {
    return typeUrl;
  }

  public String shortName() {
    return shortName;
  }

  public boolean absenceMeansDeletion() {
    return absenceMeansDeletion;
  }

  /**
   * Takes a resource out of its {@code Any}, unwrapping an {@code envoy.service.discovery.v3.Resource}
   * (whose name then wins), and checks its type URL. Validation is left to
   * {@link UnpackedResource#decode()}.
   *
   * @throws XdsResourceException if the type URL is wrong or the bytes do not parse
   */
  public UnpackedResource<T> unpack(Any any) throws XdsResourceException {
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
    Message message = parse(inner, parser, messageClass, wrapperName);
    String name = wrapperName == null || wrapperName.isEmpty() ? nameOf.apply(message) : wrapperName;
    return new Unpacked<>(name, message, decoder);
  }

  // The caller has checked the type URL. Parsing the value with the message's parser, rather than
  // Any.unpack(Class), skips a reflective getDefaultInstance lookup per call: about 1 µs, as much
  // as parsing a small Cluster.
  private static Message parse(
      Any any, Parser<? extends Message> parser, Class<? extends Message> type, String nameIfKnown)
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

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }

  @Override
  public String toString() {
    return shortName + "(" + typeUrl + ")";
  }

  private record Unpacked<T>(String name, Message message, Decoder<Message, T> decoder)
      implements UnpackedResource<T> {
    @Override
    public T decode() throws XdsResourceException {
      return decoder.decode(message);
    }
  }
}
