package io.jxds.toolkit.assertj;

import io.jxds.toolkit.ResourceVerdict;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a NACKed resource's NACK text. */
public final class RejectionAssert extends AbstractAssert<RejectionAssert, ResourceVerdict> {
  RejectionAssert(ResourceVerdict actual) {
    super(actual, RejectionAssert.class);
  }

  /**
   * Checks that the NACK text contains this.
   *
   * @param text the expected part
   * @return this
   */
  public RejectionAssert withMessageContaining(String text) {
    isNotNull();
    String nack = actual.nack().orElse("");
    if (!nack.contains(text)) {
      failWithMessage("Expected the NACK of %s to contain %s, but it is %s", actual.name(), quote(text), quote(nack));
    }
    return this;
  }

  /**
   * Checks the whole NACK text.
   *
   * @param text the expected text
   * @return this
   */
  public RejectionAssert withMessage(String text) {
    isNotNull();
    String nack = actual.nack().orElse("");
    if (!nack.equals(text)) {
      failWithMessage("Expected the NACK of %s to be %s, but it is %s", actual.name(), quote(text), quote(nack));
    }
    return this;
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }
}
