package io.jxds.api.internal.route;

import io.grpc.Metadata;
import java.util.Iterator;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Reads one header of a call as gRFC A28 says a route's header matcher sees it, from the call's
 * {@link Metadata} (what the application set; the transport adds {@code grpc-timeout} and the like
 * later, so those are not there, as in grpc-java):
 *
 * <ul>
 *   <li>a name ending in {@code -bin} reads as absent: binary values are not matched;
 *   <li>{@code content-type} reads {@code application/grpc};
 *   <li>a pseudo-header ({@code :authority}, {@code :path}...) or a name that is not a valid
 *       metadata key reads as absent;
 *   <li>several values are joined with {@code ","}.
 * </ul>
 *
 * <p>Built once per matcher, when the route table is (so the {@code Metadata.Key} is made once);
 * {@link #read} builds a string only for a header with several values. A route's {@code
 * hash_policy} reads headers the same way (gRFC A42), so the balancer's request hash uses it too.
 */
public final class HeaderReader {
  private static final String CONTENT_TYPE = "content-type";
  private static final String GRPC_CONTENT_TYPE = "application/grpc";

  private final Metadata.@Nullable Key<String> key;
  private final boolean contentType;

  private HeaderReader(Metadata.@Nullable Key<String> key, boolean contentType) {
    this.key = key;
    this.contentType = contentType;
  }

  /**
   * The reader of header {@code name}.
   *
   * @param name a header name, in any case
   * @return its reader; one that always reads absent for a name no call can carry as text
   */
  public static HeaderReader of(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals(CONTENT_TYPE)) {
      return new HeaderReader(null, true);
    }
    if (n.isEmpty() || n.startsWith(":") || n.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
      return new HeaderReader(null, false);
    }
    Metadata.Key<String> key;
    try {
      key = Metadata.Key.of(n, Metadata.ASCII_STRING_MARSHALLER);
    } catch (IllegalArgumentException e) {
      key = null; // not a valid header name: no call can carry it
    }
    return new HeaderReader(key, false);
  }

  /**
   * The header's value as matched.
   *
   * @param headers the call's headers
   * @return the value, several joined with {@code ","}; null when the call lacks it
   */
  public @Nullable String read(Metadata headers) {
    if (contentType) {
      return GRPC_CONTENT_TYPE;
    }
    Metadata.Key<String> k = key;
    if (k == null) {
      return null;
    }
    Iterable<String> values = headers.getAll(k);
    if (values == null) {
      return null;
    }
    Iterator<String> it = values.iterator();
    if (!it.hasNext()) {
      return null;
    }
    String first = it.next();
    if (!it.hasNext()) {
      return first;
    }
    StringBuilder joined = new StringBuilder(first);
    while (it.hasNext()) {
      joined.append(',').append(it.next());
    }
    return joined.toString();
  }
}
