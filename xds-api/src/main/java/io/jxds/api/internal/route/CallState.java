package io.jxds.api.internal.route;

import io.grpc.Metadata;
import org.jspecify.annotations.Nullable;

/**
 * What one call's match has learnt so far, so that routes sharing a header or a path matcher do
 * not repeat the work: each distinct header name is read from the call's {@link Metadata} at most
 * once, when a matcher first needs it (ten routes on {@code x-version} read it once), and each
 * distinct path matcher runs at most once (ten routes under {@code /echo.Echo/} compare the prefix
 * once). Lives for one {@code RouteTable.match}.
 */
final class CallState {
  private static final Object ABSENT = new Object();
  private static final byte UNKNOWN = 0;
  private static final byte MATCHES = 1;
  private static final byte DIFFERS = 2;

  /** For a table without header matchers or shared paths: remembers nothing, so one serves every call. */
  static final CallState NONE = new CallState(new Metadata(), new HeaderReader[0], 0);

  private final Metadata metadata;
  private final HeaderReader[] readers;
  private final @Nullable Object[] values; // null: not read yet; ABSENT: the call lacks it
  private final byte @Nullable [] pathResults; // null: paths are not shared, so not remembered

  CallState(Metadata metadata, HeaderReader[] readers, int sharedPaths) {
    this.metadata = metadata;
    this.readers = readers;
    this.values = new Object[readers.length];
    this.pathResults = sharedPaths == 0 ? null : new byte[sharedPaths];
  }

  /** The value of the table's header {@code index}, or null when the call lacks it. */
  @Nullable String value(int index) {
    Object v = values[index];
    if (v == null) {
      String read = readers[index].read(metadata);
      v = read == null ? ABSENT : read;
      values[index] = v;
    }
    return v == ABSENT ? null : (String) v;
  }

  /** Whether the table's path matcher {@code index}, which is {@code path}, matches the method. */
  boolean pathMatches(int index, PathMatch path, String fullMethodName) {
    byte[] results = pathResults;
    if (results == null) {
      return path.matches(fullMethodName);
    }
    byte r = results[index];
    if (r == UNKNOWN) {
      r = path.matches(fullMethodName) ? MATCHES : DIFFERS;
      results[index] = r;
    }
    return r == MATCHES;
  }
}
