package io.jxds.toolkit;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What jxds's client does with one resource: accept it, or NACK it with a line of text.
 *
 * @param type the type's short name: {@code CDS}, {@code EDS}, {@code LDS} or {@code RDS}
 * @param name the resource's name; empty when it could not be read
 * @param source where it came from ({@link XdsResource#source()})
 * @param nack the line jxds writes into the NACK's {@code error_detail} for it, exactly (a response
 *     NACKs with one line per rejected resource); empty when accepted
 * @param validated whether the verdict is the client's decoder's: true for every type the toolkit
 *     reads (Cluster, ClusterLoadAssignment, Listener, RouteConfiguration)
 * @param ignoredFields fields it sets that gRPC clients ignore
 */
public record ResourceVerdict(
    String type,
    String name,
    String source,
    Optional<String> nack,
    boolean validated,
    List<IgnoredField> ignoredFields) {
  /**
   * Checks the components; the list is copied.
   *
   * @param type the short type name
   * @param name the name, possibly empty
   * @param source where it came from
   * @param nack the NACK line, if rejected
   * @param validated whether jxds validates the type
   * @param ignoredFields fields set but ignored
   */
  public ResourceVerdict {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(nack, "nack");
    ignoredFields = List.copyOf(ignoredFields);
  }

  /**
   * Whether jxds accepts it.
   *
   * @return true unless NACKed
   */
  public boolean accepted() {
    return nack.isEmpty();
  }
}
