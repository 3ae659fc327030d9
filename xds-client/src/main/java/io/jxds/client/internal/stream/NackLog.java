package io.jxds.client.internal.stream;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decides whether a NACK is news: some control planes (java-control-plane among them) re-send a
 * rejected version after every NACK, hundreds of times a second, so only the first NACK of each
 * (type, version, reason) is a warning. Remembers the last few hundred keys.
 */
final class NackLog {
  private static final int CAPACITY = 256;

  private final Map<String, Boolean> seen =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > CAPACITY;
        }
      };

  /** True the first time this (type, version, reason) is seen. */
  boolean firstTime(String typeUrl, String version, String reason) {
    return seen.put(typeUrl + '\u0000' + version + '\u0000' + reason, Boolean.TRUE) == null;
  }
}
