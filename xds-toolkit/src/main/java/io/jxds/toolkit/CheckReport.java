package io.jxds.toolkit;

import java.util.List;
import java.util.Optional;

/**
 * Every resource of a {@link Snapshot} with jxds's verdict on it, in the snapshot's order, and
 * notes on what reading skipped or ignored.
 *
 * @param resources one verdict per resource
 * @param notes what was skipped (config-dump sections a gRPC client does not read, unknown JSON
 *     fields of a newer envoy API, names given twice), one line each
 */
public record CheckReport(List<ResourceVerdict> resources, List<String> notes) {
  /**
   * Copies the lists.
   *
   * @param resources the verdicts
   * @param notes the notes
   */
  public CheckReport {
    resources = List.copyOf(resources);
    notes = List.copyOf(notes);
  }

  /**
   * Whether a client would NACK anything: what a control plane's CI should gate on.
   *
   * @return true if any resource is rejected
   */
  public boolean anyNacked() {
    return resources.stream().anyMatch(r -> !r.accepted());
  }

  /**
   * The rejected resources.
   *
   * @return the NACKed verdicts, in order
   */
  public List<ResourceVerdict> nacked() {
    return resources.stream().filter(r -> !r.accepted()).toList();
  }

  /**
   * The verdict on a resource, by type and name (the last one, when the name is given twice).
   *
   * @param type {@code CDS}, {@code EDS}, {@code LDS} or {@code RDS}
   * @param name the resource's name
   * @return the verdict, empty when there is no such resource
   */
  public Optional<ResourceVerdict> resource(String type, String name) {
    ResourceVerdict found = null;
    for (ResourceVerdict r : resources) {
      if (r.type().equals(type) && r.name().equals(name)) {
        found = r;
      }
    }
    return Optional.ofNullable(found);
  }

  /**
   * The verdicts on every resource of this name, of any type (a cluster and its endpoints often
   * share one).
   *
   * @param name the resource's name
   * @return the verdicts, in order
   */
  public List<ResourceVerdict> named(String name) {
    return resources.stream().filter(r -> r.name().equals(name)).toList();
  }
}
