package io.jxds.client.internal.stream;

/**
 * State of the world, one type on one stream: which request the next response answers, so that
 * a name with nothing cached that the answer lacks is known not to exist at once (see {@code
 * ResourceCache.handleResponse}), while a response that may predate the request proves nothing.
 *
 * <p>A server handles a type's requests in order and ignores one whose {@code response_nonce} is
 * not the last nonce it sent (it is stale). So the response that follows nonce N answers a
 * request carrying N, or is a push the server sent on its own; and a server pushes only a new
 * version, and answers a request that adds names at its current version. Hence:
 * <ul>
 *   <li>A response at the version of the previous one (or the stream's first, which nothing can
 *       precede) answers a request carrying the previous nonce: the first one that added names,
 *       or, if none did, the first one. Every name watched when that request was written is in
 *       it and in every later request of the type (a name that leaves and comes back gets a new
 *       mark).
 *   <li>A response at a new version may be a push that left before the request: it answers
 *       nothing here, and the names it lacks wait for the next answer or their timers.
 * </ul>
 * Names are compared by their wire mark ({@code ResourceCache.wireMark}): a request names every
 * watched name whose mark is at most the type's mark when it was written.
 */
final class AnsweredRequest {
  /** The type's wire mark when the last request was written; -1 before one. */
  private long sentMark = -1;
  /** The mark of the request the next response answers, if it answers one; -1 for none yet. */
  private long answerMark = -1;
  private boolean answerAddedNames;
  /** The last response's version_info; null before the stream's first response of the type. */
  private String lastVersion;

  /** A request of the type is written now, naming every watched name up to {@code mark}. */
  void sent(long mark) {
    boolean addsNames = mark > sentMark;
    if (answerMark < 0 || (addsNames && !answerAddedNames)) {
      answerMark = mark;
      answerAddedNames = addsNames;
    }
    sentMark = mark;
  }

  /**
   * A response of the type arrived at {@code version}. Returns the mark of the request it
   * answers, or -1 when it may answer none; the requests written from now on carry its nonce.
   */
  long responded(String version) {
    long answered = lastVersion == null || lastVersion.equals(version) ? answerMark : -1;
    lastVersion = version;
    answerMark = -1;
    answerAddedNames = false;
    return answered;
  }
}
