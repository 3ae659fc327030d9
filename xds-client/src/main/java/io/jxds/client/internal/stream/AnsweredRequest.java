package io.jxds.client.internal.stream;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * State of the world, one type on one stream: which request the next response answers, so that
 * a name with nothing cached that the answer lacks is known not to exist at once (see {@code
 * ResourceCache.handleResponse}), while a response that may predate the request proves nothing.
 *
 * <p>The xDS protocol's rules for a server: it handles a type's requests in order and ignores one
 * whose {@code response_nonce} is not the last nonce it sent (it is stale); it answers a request
 * whose names differ from those it last answered, never a bare ACK or NACK; and it pushes on its
 * own only a new version. So the response that follows nonce N answers a request carrying N, or is
 * a push. Hence:
 * <ul>
 *   <li>A response at the version of the previous one (or the stream's first, which nothing can
 *       precede) answers the first request carrying the previous nonce whose names differ from
 *       those of the request the previous response answered. When that request is unknown (the
 *       previous response was a push) or no request differed, the first request carrying the
 *       previous nonce is the safe guess: it names no more than the one the server answered.
 *   <li>A response at a new version may be a push that left before the request: it answers
 *       nothing here, and the names it lacks wait for the next answer or their timers.
 * </ul>
 * Note the request that lists names the answer lacked is often the ACK itself: requests adding
 * names that crossed the response carried a nonce that was stale when they arrived.
 *
 * <p>Every name watched when the answered request was written is in it and in every later
 * request of the type; names are compared by their wire mark ({@code ResourceCache.wireMark}): a
 * request names every watched name whose mark is at most the type's mark when it was written (a
 * name that leaves and comes back gets a new mark). A request's names are compared as the
 * (shared, immutable) list it was built from, so an ACK that lists the same names costs one
 * identity check.
 */
final class AnsweredRequest {
  /** The names of the request the last response answered; null when unknown or before one. */
  private @Nullable List<String> answeredNames;
  /** The first request since the last response whose names differ from {@link #answeredNames}. */
  private long changeMark = -1;
  private @Nullable List<String> changeNames;
  /** The first request since the last response; -1 for none yet. */
  private long firstMark = -1;
  private @Nullable List<String> firstNames;
  /** The last response's version_info; null before the stream's first response of the type. */
  private @Nullable String lastVersion;

  /** A request of the type is written now, naming {@code names}: every watched name up to {@code mark}. */
  void sent(long mark, List<String> names) {
    if (firstMark < 0) {
      firstMark = mark;
      firstNames = names;
    }
    if (changeMark < 0 && answeredNames != null && !names.equals(answeredNames)) {
      changeMark = mark;
      changeNames = names;
    }
  }

  /**
   * A response of the type arrived at {@code version}. Returns the mark of the request it
   * answers, or -1 when it may answer none; the requests written from now on carry its nonce.
   */
  long responded(String version) {
    boolean mayAnswer = lastVersion == null || lastVersion.equals(version);
    long answered = -1;
    List<String> names = null;
    if (mayAnswer && changeMark >= 0) {
      answered = changeMark;
      names = changeNames;
    } else if (mayAnswer && firstMark >= 0) {
      answered = firstMark;
      names = firstNames;
    }
    lastVersion = version;
    answeredNames = names;
    changeMark = -1;
    changeNames = null;
    firstMark = -1;
    firstNames = null;
    return answered;
  }
}
