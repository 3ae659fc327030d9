package io.jxds.api.model;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The size limits RE2 applies to a regex and RE2/J does not, checked on the text before RE2/J
 * compiles it: without them, 23 characters from a control plane, {@code ((a{1000}){1000}){1000}},
 * make RE2/J build a program of a billion instructions (an {@code OutOfMemoryError}), and a few
 * thousand nested groups overflow its recursive compiler's stack.
 *
 * <ul>
 *   <li><b>Nested repetition.</b> Counted repetitions nested inside one another may not multiply
 *       past {@value #MAX_REPEAT}, RE2's own rule: {@code (a{10}){100}} is the most, and
 *       {@code (a{11}){100}} (1 100 copies of {@code a}) is refused. A repetition counts its upper
 *       bound, or its lower bound when it has none ({@code {n,}}); {@code *}, {@code +} and
 *       {@code ?} count 1, since RE2 compiles them without copying their operand.
 *   <li><b>Size.</b> The program may hold at most {@value #MAX_SIZE} instructions, estimated as one
 *       per literal, character class or escape, times the repetitions around it:
 *       {@code (ab{10}){100}} is (1 + 10) × 100 = 1 100. RE2 refuses programs larger than
 *       its memory budget (8 MiB by default); RE2/J has no budget.
 *   <li><b>Depth.</b> Groups may nest at most {@value #MAX_DEPTH} deep, the limit of Go's
 *       {@code regexp/syntax}, from which RE2/J is ported.
 * </ul>
 *
 * <p>The scan reads RE2's syntax only as far as these limits need: escapes, character classes,
 * groups, alternation and counted repetitions. What it does not understand it counts as a literal,
 * and any syntax error is left for RE2/J to report.
 */
final class Re2Limits {
  static final int MAX_REPEAT = 1000;
  static final long MAX_SIZE = 100_000;
  static final int MAX_DEPTH = 1000;
  private static final String ERROR = "error parsing regexp: ";

  private Re2Limits() {}

  /**
   * Checks {@code regex} against the limits.
   *
   * @throws IllegalArgumentException naming the limit, in RE2/J's message format
   */
  static void check(String regex) {
    Deque<Group> open = new ArrayDeque<>();
    Group group = new Group();
    int n = regex.length();
    int i = 0;
    while (i < n) {
      char c = regex.charAt(i);
      if (c == '\\') {
        i = escape(regex, i, group);
      } else if (c == '[') {
        i = characterClass(regex, i);
        group.add(1, 1);
      } else if (c == '(') {
        if (open.size() >= MAX_DEPTH) {
          throw new IllegalArgumentException(
              ERROR + "expression nests too deeply: more than " + MAX_DEPTH + " levels");
        }
        open.push(group);
        group = new Group();
        i++;
      } else if (c == ')' && !open.isEmpty()) {
        Group inner = group;
        group = open.pop();
        group.add(inner.size, inner.maxRepeat);
        i++;
      } else if (c == '|') {
        group.alternate();
        i++;
      } else if (c == '{' && repeatEnd(regex, i) > 0) {
        int end = repeatEnd(regex, i);
        group.repeat(repeatCount(regex.substring(i + 1, end - 1)), regex.substring(i, end));
        i = end;
      } else {
        group.add(c == '*' || c == '+' || c == '?' ? 0 : 1, 1);
        i++;
      }
    }
  }

  /** Skips the escape at {@code i}, adding what it stands for to {@code group}. */
  private static int escape(String regex, int i, Group group) {
    int n = regex.length();
    if (i + 1 >= n) {
      return n; // a trailing backslash: RE2/J reports it
    }
    char c = regex.charAt(i + 1);
    if (c == 'Q') { // \Q...\E: every character up to \E is a literal
      int end = regex.indexOf("\\E", i + 2);
      int stop = end < 0 ? n : end;
      for (int k = i + 2; k < stop; k++) {
        group.add(1, 1);
      }
      return end < 0 ? n : end + 2;
    }
    group.add(1, 1);
    if (c == 'p' || c == 'P' || c == 'x') {
      if (i + 2 < n && regex.charAt(i + 2) == '{') {
        int close = regex.indexOf('}', i + 3);
        return close < 0 ? n : close + 1; // \p{Greek}, \x{10FFFF}
      }
      return Math.min(n, i + (c == 'x' ? 4 : 3)); // \pL, \x41
    }
    return i + 2;
  }

  /** The index after the character class opening at {@code i}, or the end when it never closes. */
  private static int characterClass(String regex, int i) {
    int n = regex.length();
    int j = i + 1;
    if (j < n && regex.charAt(j) == '^') {
      j++;
    }
    if (j < n && regex.charAt(j) == ']') {
      j++; // a ] first in the class is a literal
    }
    while (j < n) {
      char c = regex.charAt(j);
      if (c == '\\') {
        j += 2;
      } else if (c == '[' && j + 1 < n && regex.charAt(j + 1) == ':' && regex.indexOf(":]", j + 2) > 0) {
        j = regex.indexOf(":]", j + 2) + 2; // [:alpha:]
      } else if (c == ']') {
        return j + 1;
      } else {
        j++;
      }
    }
    return n;
  }

  /**
   * The index after {@code {n}}, {@code {n,}} or {@code {n,m}} at {@code i}; 0 when it is not one
   * and so, for RE2, literal text: a count written with a leading zero ({@code {010}}) is not one.
   */
  private static int repeatEnd(String regex, int i) {
    int n = regex.length();
    int j = count(regex, i + 1);
    if (j < 0 || j >= n) {
      return 0;
    }
    if (regex.charAt(j) == ',') {
      j = j + 1 < n && regex.charAt(j + 1) == '}' ? j + 1 : count(regex, j + 1);
    }
    return j > 0 && j < n && regex.charAt(j) == '}' ? j + 1 : 0;
  }

  /** The index after the decimal count at {@code from}, or -1 when there is none or it has a leading zero. */
  private static int count(String s, int from) {
    int j = from;
    while (j < s.length() && s.charAt(j) >= '0' && s.charAt(j) <= '9') {
      j++;
    }
    return j == from || (j - from > 1 && s.charAt(from) == '0') ? -1 : j;
  }

  /** What {@code n}, {@code n,} or {@code n,m} multiplies by: its upper bound, or its lower one. */
  private static int repeatCount(String bounds) {
    int comma = bounds.indexOf(',');
    String bound = comma < 0 ? bounds : comma == bounds.length() - 1 ? bounds.substring(0, comma)
        : bounds.substring(comma + 1);
    // A count beyond RE2's own limit is RE2/J's to refuse ("invalid repeat count").
    return bound.length() > 4 ? MAX_REPEAT + 1 : Integer.parseInt(bound);
  }

  /** One level of grouping: what it holds so far, and its last element, which a repetition applies to. */
  private static final class Group {
    long size;
    int maxRepeat = 1;
    private long lastSize;
    private int lastRepeat;
    private boolean hasLast;

    void add(long elementSize, int repeat) {
      size += elementSize;
      checkSize();
      lastSize = elementSize;
      lastRepeat = repeat;
      hasLast = true;
      maxRepeat = Math.max(maxRepeat, repeat);
    }

    void alternate() {
      hasLast = false;
    }

    void repeat(int count, String text) {
      if (!hasLast || count > MAX_REPEAT) {
        return; // nothing to repeat, or a count RE2/J refuses itself
      }
      int times = Math.max(count, 1);
      long repeat = (long) lastRepeat * times;
      if (repeat > MAX_REPEAT) {
        throw new IllegalArgumentException(ERROR + "invalid repeat count: nested repetitions multiply to more than "
            + MAX_REPEAT + ": `" + text + "`");
      }
      size += lastSize * (times - 1);
      lastSize *= times;
      lastRepeat = (int) repeat;
      maxRepeat = Math.max(maxRepeat, lastRepeat);
      checkSize();
    }

    private void checkSize() {
      if (size > MAX_SIZE) {
        throw new IllegalArgumentException(ERROR + "expression too large: more than " + MAX_SIZE
            + " instructions once its repetitions are expanded");
      }
    }
  }
}
