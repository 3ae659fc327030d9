package io.jxds.client.internal.stream;

import io.jxds.client.internal.cache.ResponseOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a NACK is news: some control planes (java-control-plane among them) re-send a
 * rejected version after every NACK, hundreds of times a second, so only the first NACK of each
 * (type, version, reason) is a warning. Remembers the last few hundred keys.
 */
final class NackLog {
  private static final Logger log = LoggerFactory.getLogger(NackLog.class);
  private static final int CAPACITY = 256;

  private final Map<String, Boolean> seen =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > CAPACITY;
        }
      };

  /**
   * Logs a NACK sent to {@code target} (a warning the first time, see the class comment) and
   * returns its {@code error_detail} text, bounded ({@link NackDetail}): the log line and the NACK
   * carry the same text.
   */
  String nack(String typeUrl, String version, ResponseOutcome outcome, String target) {
    String detail = NackDetail.cap(outcome.errorDetail(), NackDetail.MAX_BYTES);
    String shortType = typeUrl.substring(typeUrl.lastIndexOf('.') + 1);
    if (firstTime(typeUrl, version, detail)) {
      log.warn("NACK {} version \"{}\" from {}: {}", shortType, version, target, detail);
    } else {
      log.debug("NACK {} version \"{}\" again: {}", shortType, version, detail);
    }
    return detail;
  }

  /** True the first time this (type, version, reason) is seen. */
  boolean firstTime(String typeUrl, String version, String reason) {
    return seen.put(typeUrl + '\u0000' + version + '\u0000' + reason, Boolean.TRUE) == null;
  }
}
