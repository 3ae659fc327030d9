package io.jxds.api.internal.route;

import io.grpc.Metadata;
import org.jspecify.annotations.Nullable;

/**
 * One call's header values as a route table's matchers read them: each distinct header name read
 * from the call's {@link Metadata} at most once, when a matcher first needs it, however many routes
 * match on it (ten routes on {@code x-version} read it once). Lives for one {@code match}.
 */
final class CallHeaders {
  private static final Object ABSENT = new Object();
  /** For a table without header matchers: reads nothing, so one instance serves every call. */
  static final CallHeaders NONE = new CallHeaders(new Metadata(), new HeaderReader[0]);

  private final Metadata metadata;
  private final HeaderReader[] readers;
  private final @Nullable Object[] values; // null: not read yet; ABSENT: the call lacks it

  CallHeaders(Metadata metadata, HeaderReader[] readers) {
    this.metadata = metadata;
    this.readers = readers;
    this.values = new Object[readers.length];
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
}
