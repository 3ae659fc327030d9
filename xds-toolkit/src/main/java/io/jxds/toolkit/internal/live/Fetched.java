package io.jxds.toolkit.internal.live;

import com.google.protobuf.Any;
import io.grpc.Status;
import io.jxds.api.ResourceState;
import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import io.jxds.toolkit.ResourceVerdict;
import io.jxds.toolkit.XdsResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a fetch found, read from the client's status: per resource the bytes the client cached
 * (checked again by the toolkit, with the same code as a file's), the NACK text it sent, or why
 * there is nothing.
 *
 * @param answers one per resource of the walk, in the order found
 * @param complete whether every resource was answered before the deadline
 * @param nodeId the node the client identified itself as
 * @param failure why the root cannot be checked (it does not exist, or nothing answered); null when it can
 */
public record Fetched(List<Answer> answers, boolean complete, String nodeId, @Nullable String failure) {
  /**
   * One resource.
   *
   * @param type its type
   * @param name its name
   * @param version the version of the cached value, empty when none
   * @param raw the cached value as the control plane sent it, when any
   * @param rejectedVersion the version the client NACKed, when the last one was NACKed
   * @param nack the line the client wrote into that NACK for this resource
   * @param missing why there is nothing to check, naming the resource; null when there is
   */
  public record Answer(
      ResourceType<?> type,
      String name,
      String version,
      Optional<Any> raw,
      Optional<String> rejectedVersion,
      Optional<String> nack,
      @Nullable String missing) {

    static Answer of(ResourceType<?> type, String name, @Nullable ResourceStatus s, @Nullable Status lastError,
        Duration timeout) {
      String what = describe(type, name);
      if (s == null) {
        return new Answer(type, name, "", Optional.empty(), Optional.empty(), Optional.empty(),
            what + ": the client does not hold it");
      }
      if (s.state() == ResourceState.NACKED && s.rejectedVersion().isPresent()) {
        String prefix = "version \"" + s.rejectedVersion().get() + "\" rejected: ";
        String text = s.lastError().orElse("");
        String nack = text.startsWith(prefix) ? text.substring(prefix.length()) : text;
        return new Answer(type, name, s.version(), s.rawResource(), s.rejectedVersion(), Optional.of(nack), null);
      }
      if (s.rawResource().isPresent()) {
        return new Answer(type, name, s.version(), s.rawResource(), Optional.empty(), Optional.empty(), null);
      }
      String missing = switch (s.state()) {
        case DOES_NOT_EXIST -> what + " does not exist: the control plane's state-of-the-world response leaves it out";
        case TIMEOUT ->
            what + " does not exist: the control plane did not send it before the does-not-exist timer fired";
        default -> what + ": no answer from the control plane within " + seconds(timeout)
            + (lastError == null ? "" : " (" + lastError.getDescription() + ")");
      };
      return new Answer(type, name, "", Optional.empty(), Optional.empty(), Optional.empty(), missing);
    }
  }

  /** The resources to check: every cached value, as the control plane sent it. */
  public List<XdsResource> resources() {
    List<XdsResource> list = new ArrayList<>();
    for (Answer a : answers) {
      a.raw().ifPresent(raw -> list.add(new XdsResource(a.type().typeUrl(), raw,
          "live version " + a.version() + (a.rejectedVersion().isPresent() ? " (cached)" : ""), 0)));
    }
    return list;
  }

  /** The client's verdicts on versions it NACKed: the exact NACK line, whether a good version is cached or not. */
  public List<ResourceVerdict> rejections() {
    List<ResourceVerdict> list = new ArrayList<>();
    for (Answer a : answers) {
      if (a.nack().isPresent()) {
        list.add(new ResourceVerdict(a.type().shortName(), a.name(), "live version " + a.rejectedVersion().orElse("")
            + (a.raw().isPresent() ? " (NACKed; the client keeps version " + a.version() + ")" : " (NACKed)"),
            a.nack(), true, List.of()));
      }
    }
    return list;
  }

  /** Resources that are missing, and whether the walk was cut short. */
  public List<String> notes() {
    List<String> notes = new ArrayList<>();
    if (!complete) {
      notes.add("the fetch stopped at its timeout before every resource was answered: what is listed is what the"
          + " client held then");
    }
    for (Answer a : answers) {
      if (a.missing() != null) {
        notes.add(a.missing());
      }
    }
    return notes;
  }

  /** {@code listener "svc"}. */
  static String describe(ResourceType<?> type, String name) {
    String kind = switch (type.shortName()) {
      case "LDS" -> "listener";
      case "RDS" -> "route configuration";
      case "CDS" -> "cluster";
      case "EDS" -> "endpoints";
      default -> type.shortName();
    };
    return kind + " \"" + name + "\"";
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
