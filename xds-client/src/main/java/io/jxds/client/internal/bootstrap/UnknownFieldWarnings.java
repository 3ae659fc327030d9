package io.jxds.client.internal.bootstrap;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns about bootstrap fields that are ignored, once per JVM each (the bootstrap is read again on
 * every client acquisition). gRPC's bootstrap format lets unknown fields pass, so only these are
 * warned about: every unknown field of an object jxds owns ({@code jxds}), and in gRPC's objects a
 * field within two edits of a known one ({@code nodes} for {@code node}), which is most likely a
 * misspelling that would otherwise be ignored without a word.
 */
final class UnknownFieldWarnings {
  private static final Logger log = LoggerFactory.getLogger(BootstrapParser.class);
  /** Edits (insert, delete, replace a character) up to which a field reads as a misspelling. */
  private static final int MAX_EDITS = 2;
  /** Remembered warnings; past this many, further ones go to DEBUG rather than grow the set. */
  private static final int MAX_REMEMBERED = 1_000;
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private UnknownFieldWarnings() {}

  /**
   * @param source where the bootstrap came from, the prefix of every line
   * @param path the object's path with its trailing dot ({@code "jxds."}), empty at the top level
   * @param fields the object's fields
   * @param known the fields the object may have
   * @param ownedByJxds whether every unknown field is warned about, not only near misses
   */
  static void check(String source, String path, Set<String> fields, Set<String> known, boolean ownedByJxds) {
    for (String field : fields) {
      if (known.contains(field)) {
        continue;
      }
      String closest = closest(field, known);
      String message;
      if (closest != null) {
        message =
            source + ": unknown bootstrap field " + path + field + " ignored; did you mean " + path + closest + "?";
      } else if (ownedByJxds) {
        message = source + ": unknown bootstrap field " + path + field + " ignored ("
            + path.substring(0, path.length() - 1) + " knows " + String.join(", ", new TreeSet<>(known)) + ")";
      } else {
        log.debug("{}: bootstrap field {}{} is not one jxds reads; ignored", source, path, field);
        continue;
      }
      warnOnce(message);
    }
  }

  private static void warnOnce(String message) {
    if (WARNED.size() < MAX_REMEMBERED && WARNED.add(message)) {
      log.warn(message);
    } else {
      log.debug(message);
    }
  }

  /** The known field fewest edits away, if within {@link #MAX_EDITS}; ties go to the first in order. */
  private static String closest(String field, Set<String> known) {
    String best = null;
    int bestEdits = MAX_EDITS + 1;
    for (String candidate : new TreeSet<>(known)) {
      int edits = edits(field, candidate);
      if (edits < bestEdits) {
        best = candidate;
        bestEdits = edits;
      }
    }
    return best;
  }

  /** Levenshtein distance. */
  static int edits(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int replace = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(replace, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }
}
