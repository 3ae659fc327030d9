package io.jxds.toolkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The list of ignored fields names only fields that exist: a typo would silently never match. */
class IgnoredFieldsTest {
  @Test
  void everyPathNamesRealFields() {
    for (Map.Entry<String, List<IgnoredFields.Rule>> e : IgnoredFields.RULES.entrySet()) {
      for (IgnoredFields.Rule rule : e.getValue()) {
        Descriptor d = IgnoredFields.root(e.getKey());
        String[] segments = rule.path().split("\\.");
        for (int i = 0; i < segments.length; i++) {
          boolean repeated = segments[i].endsWith("[]");
          String name = repeated ? segments[i].substring(0, segments[i].length() - 2) : segments[i];
          FieldDescriptor f = d.findFieldByName(name);
          assertThat(f).as("%s in %s", name, rule.path()).isNotNull();
          assertThat(f.isRepeated()).as("%s marked [] exactly when repeated", rule.path())
              .isEqualTo(repeated || (i == segments.length - 1 && f.isRepeated()));
          if (i < segments.length - 1) {
            d = f.getMessageType();
          }
        }
      }
    }
  }
}
