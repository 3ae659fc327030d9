package io.jxds.api.model.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jxds.api.model.route.HeaderMatcher.PresentMatch;
import io.jxds.api.model.route.HeaderMatcher.RangeMatch;
import io.jxds.api.model.route.HeaderMatcher.StringMatch;
import org.junit.jupiter.api.Test;

class HeaderMatcherTest {
  private static final StringMatch EXACT_V2 = new StringMatch(new StringMatcher.Exact("v2", false));

  @Test
  void nameIsLowerCased() {
    assertThat(HeaderMatcher.of("X-Version", EXACT_V2).name()).isEqualTo("x-version");
  }

  @Test
  void presentHeaderMatchesItsValue() {
    HeaderMatcher m = HeaderMatcher.of("x-version", EXACT_V2);
    assertThat(m.matches("v2")).isTrue();
    assertThat(m.matches("v1")).isFalse();
  }

  @Test
  void absentHeaderMatchesNothingEvenInverted() {
    assertThat(HeaderMatcher.of("x-version", EXACT_V2).matches(null)).isFalse();
    assertThat(new HeaderMatcher("x-version", EXACT_V2, true, false).matches(null)).isFalse();
  }

  @Test
  void invertFlipsAPresentHeadersResult() {
    HeaderMatcher m = new HeaderMatcher("x-version", EXACT_V2, true, false);
    assertThat(m.matches("v2")).isFalse();
    assertThat(m.matches("v1")).isTrue();
  }

  @Test
  void presentMatchAsksWhetherTheHeaderIsThere() {
    assertThat(HeaderMatcher.of("x", new PresentMatch(true)).matches("")).isTrue();
    assertThat(HeaderMatcher.of("x", new PresentMatch(true)).matches(null)).isFalse();
    assertThat(HeaderMatcher.of("x", new PresentMatch(false)).matches(null)).isTrue();
    assertThat(HeaderMatcher.of("x", new PresentMatch(false)).matches("a")).isFalse();
    // invert flips it, absent header included
    assertThat(new HeaderMatcher("x", new PresentMatch(true), true, false).matches(null)).isTrue();
    assertThat(new HeaderMatcher("x", new PresentMatch(true), true, false).matches("a")).isFalse();
  }

  @Test
  void treatMissingAsEmptyReadsAnAbsentHeaderAsEmpty() {
    // istiod's withoutHeaders: {x-version: {exact: v2}}: invert + treat_missing_header_as_empty
    HeaderMatcher without = new HeaderMatcher("x-version", EXACT_V2, true, true);
    assertThat(without.matches(null)).isTrue();
    assertThat(without.matches("v2")).isFalse();
    assertThat(without.matches("v1")).isTrue();
  }

  @Test
  void rangeExcludesItsEndAsTheXdsApiSays() {
    // Int64Range: "[-10,0) matches -1 but not 0"; grpc-java includes the end.
    HeaderMatcher m = HeaderMatcher.of("x-n", new RangeMatch(-10, 0));
    assertThat(m.matches("-1")).isTrue();
    assertThat(m.matches("-10")).isTrue();
    assertThat(m.matches("0")).isFalse();
    assertThat(m.matches("-11")).isFalse();
  }

  @Test
  void rangeDoesNotMatchWhatIsNotAnInteger() {
    HeaderMatcher m = HeaderMatcher.of("x-n", new RangeMatch(0, 100));
    assertThat(m.matches("+5")).isTrue();
    assertThat(m.matches("5.0")).isFalse();
    assertThat(m.matches("")).isFalse();
    assertThat(m.matches("99999999999999999999")).isFalse();
    assertThat(new HeaderMatcher("x-n", new RangeMatch(0, 100), true, false).matches("abc")).isTrue();
  }

  @Test
  void emptyRangeMatchesNothingAndAnInvertedOneIsRefused() {
    assertThat(HeaderMatcher.of("x-n", new RangeMatch(5, 5)).matches("5")).isFalse();
    assertThatThrownBy(() -> new RangeMatch(5, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("end must be >= start, got [5, 4)");
  }

  @Test
  void emptyNameIsRefused() {
    assertThatThrownBy(() -> HeaderMatcher.of("", EXACT_V2)).isInstanceOf(IllegalArgumentException.class);
  }
}
