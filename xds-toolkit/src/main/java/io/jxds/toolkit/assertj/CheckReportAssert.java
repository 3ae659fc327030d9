package io.jxds.toolkit.assertj;

import io.jxds.toolkit.CheckReport;
import io.jxds.toolkit.IgnoredField;
import io.jxds.toolkit.ResourceVerdict;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a {@link CheckReport}. */
public final class CheckReportAssert extends AbstractAssert<CheckReportAssert, CheckReport> {
  CheckReportAssert(CheckReport actual) {
    super(actual, CheckReportAssert.class);
  }

  /**
   * Checks that a client would NACK nothing.
   *
   * @return this
   */
  public CheckReportAssert hasNoNacks() {
    isNotNull();
    if (actual.anyNacked()) {
      failWithMessage("Expected no NACK, but a client would NACK:%n%s", lines(actual.nacked()));
    }
    return this;
  }

  /**
   * Checks that a resource of this name (of any type) would be NACKed, and goes to its NACK text.
   *
   * @param name the resource's name
   * @return assertions on the NACK
   */
  public RejectionAssert rejects(String name) {
    isNotNull();
    List<ResourceVerdict> named = actual.named(name);
    ResourceVerdict rejected = named.stream().filter(v -> !v.accepted()).reduce((a, b) -> b).orElse(null);
    if (rejected == null) {
      failWithMessage("Expected a client to NACK %s, but %s", name,
          named.isEmpty() ? "there is no such resource" : "it accepts it");
    }
    return new RejectionAssert(rejected);
  }

  /**
   * Checks that every resource of this name (of any type) is accepted.
   *
   * @param name the resource's name
   * @return this
   */
  public CheckReportAssert accepts(String name) {
    isNotNull();
    List<ResourceVerdict> named = actual.named(name);
    if (named.isEmpty()) {
      failWithMessage("Expected a resource named %s, but there is none", name);
    }
    List<ResourceVerdict> rejected = named.stream().filter(v -> !v.accepted()).toList();
    if (!rejected.isEmpty()) {
      failWithMessage("Expected a client to accept %s, but it would NACK:%n%s", name, lines(rejected));
    }
    return this;
  }

  /**
   * Checks that a resource of this name sets a field gRPC ignores.
   *
   * @param name the resource's name
   * @param field the field's path, or its start (e.g. {@code health_checks})
   * @return this
   */
  public CheckReportAssert warnsThat(String name, String field) {
    isNotNull();
    List<IgnoredField> fields = actual.named(name).stream().flatMap(v -> v.ignoredFields().stream()).toList();
    if (fields.stream().noneMatch(f -> f.field().startsWith(field))) {
      failWithMessage("Expected %s to set %s, which gRPC ignores, but its ignored fields are %s", name, field,
          fields.stream().map(IgnoredField::field).toList());
    }
    return this;
  }

  private static String lines(List<ResourceVerdict> verdicts) {
    StringBuilder s = new StringBuilder();
    for (ResourceVerdict v : verdicts) {
      s.append("  ").append(v.type()).append(" \"").append(v.name()).append("\" (").append(v.source()).append("): ")
          .append(v.nack().orElse("")).append(System.lineSeparator());
    }
    return s.toString();
  }
}
