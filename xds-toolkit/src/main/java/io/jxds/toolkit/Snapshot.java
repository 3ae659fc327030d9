package io.jxds.toolkit;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.jxds.api.ResourceType;
import io.jxds.api.XdsClient;
import io.jxds.toolkit.internal.Checker;
import io.jxds.toolkit.internal.KnownTypes;
import io.jxds.toolkit.internal.live.Fetched;
import io.jxds.toolkit.internal.live.Fetcher;
import io.jxds.toolkit.internal.plan.Planner;
import io.jxds.toolkit.internal.read.ResourceFinder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A set of xDS resources, as a control plane would serve them to one client: Clusters,
 * ClusterLoadAssignments, Listeners and RouteConfigurations, each with where it came from.
 * Immutable.
 *
 * <pre>{@code
 * Snapshot snapshot = Snapshot.of(myControlPlane.clusters("payments"));   // protos
 * Snapshot fromFiles = Snapshot.read(Path.of("clusters.json"));           // envoy proto3 JSON
 * TrafficPlan plan = snapshot.plan();
 * }</pre>
 *
 * <p>Files hold envoy's proto3 JSON: one resource with {@code "@type"} (or an
 * {@code envoy.service.discovery.v3.Resource} wrapper), a {@code DiscoveryResponse}, an Envoy
 * {@code /config_dump}, a CSDS {@code ClientStatusResponse} or {@code ClientConfig}, or a JSON array
 * of these.
 */
public final class Snapshot {
  private final List<XdsResource> resources;
  private final List<String> notes;
  /** NACKs a live client reported, for versions it keeps no bytes of (see {@link #fetchListener}). */
  private final List<ResourceVerdict> clientVerdicts;

  private Snapshot(List<XdsResource> resources, List<String> notes) {
    this(resources, List.of(), notes);
  }

  private Snapshot(List<XdsResource> resources, List<ResourceVerdict> clientVerdicts, List<String> notes) {
    this.resources = List.copyOf(resources);
    this.clientVerdicts = List.copyOf(clientVerdicts);
    this.notes = List.copyOf(notes);
  }

  /**
   * The given resources, each as it would arrive alone.
   *
   * @param resources Cluster, ClusterLoadAssignment, Listener or RouteConfiguration messages, or
   *     {@code Any}s or {@code Resource} wrappers holding them
   * @return the snapshot
   * @throws IllegalArgumentException if a message is of another type
   */
  public static Snapshot of(Message... resources) {
    return of(Arrays.asList(resources));
  }

  /**
   * The given resources, each as it would arrive alone.
   *
   * @param resources Cluster, ClusterLoadAssignment, Listener or RouteConfiguration messages, or
   *     {@code Any}s or {@code Resource} wrappers holding them
   * @return the snapshot
   * @throws IllegalArgumentException if a message is of another type
   */
  public static Snapshot of(Iterable<? extends Message> resources) {
    List<XdsResource> list = new ArrayList<>();
    int i = 0;
    for (Message m : resources) {
      Any any = m instanceof Any a ? a : Any.pack(m);
      String typeUrl = decodedAs(any);
      if (!KnownTypes.isKnown(typeUrl)) {
        throw new IllegalArgumentException("resource #" + i + ": unknown type " + typeUrl + ": the toolkit reads "
            + KnownTypes.known());
      }
      list.add(new XdsResource(typeUrl, any, "resource #" + i, 0));
      i++;
    }
    return new Snapshot(list, List.of());
  }

  /**
   * The resources of DiscoveryResponses, each decoded as its response's {@code type_url} says (a
   * resource of another type is then NACKed, as a client would).
   *
   * @param responses state-of-the-world responses
   * @return the snapshot
   * @throws IllegalArgumentException if a response's type is not one the toolkit reads
   */
  public static Snapshot fromResponses(DiscoveryResponse... responses) {
    List<XdsResource> list = new ArrayList<>();
    for (int r = 0; r < responses.length; r++) {
      DiscoveryResponse response = responses[r];
      if (!KnownTypes.isKnown(response.getTypeUrl())) {
        throw new IllegalArgumentException("response #" + r + ": unknown type " + response.getTypeUrl()
            + ": the toolkit reads " + KnownTypes.known());
      }
      for (int i = 0; i < response.getResourcesCount(); i++) {
        list.add(new XdsResource(response.getTypeUrl(), response.getResources(i),
            "response #" + r + " resources[" + i + "]", i));
      }
    }
    return new Snapshot(list, List.of());
  }

  /**
   * Reads files of envoy proto3 JSON (see the class comment), in order.
   *
   * @param files the files
   * @return the snapshot of all their resources
   * @throws BadInputException naming the file (and line) that cannot be read or is not xDS
   */
  public static Snapshot read(Path... files) throws BadInputException {
    List<XdsResource> list = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (Path file : files) {
      ResourceFinder.Found found = ResourceFinder.find(readBytes(file), file.toString());
      list.addAll(found.resources());
      notes.addAll(found.notes());
    }
    return new Snapshot(list, notes);
  }

  /**
   * Reads envoy proto3 JSON text (see the class comment).
   *
   * @param json the text
   * @param sourceName names it in messages, as a file name would
   * @return the snapshot
   * @throws BadInputException naming the source and line when the text is not xDS JSON
   */
  public static Snapshot parse(String json, String sourceName) throws BadInputException {
    ResourceFinder.Found found = ResourceFinder.find(json.getBytes(StandardCharsets.UTF_8), sourceName);
    return new Snapshot(found.resources(), found.notes());
  }

  /**
   * Fetches a listener from a control plane through a jxds client, as an {@code xds:///} channel
   * would: the listener, its route configuration, every cluster its routes name and their
   * endpoints. Each resource the client accepted is checked and planned as a file's would be (from
   * the bytes the client cached); one it NACKed gets the client's own NACK text, and the plan uses
   * the good version the client keeps, if any. The walk waits until every resource is answered (a
   * value, a NACK, or does-not-exist), at most {@code timeout}; what is missing then is a note.
   *
   * <pre>{@code
   * try (DefaultXdsClient client = XdsClientBuilder.forTarget("localhost:18000", InsecureChannelCredentials.create())
   *     .node(Node.newBuilder().setId("test-node").build()).build()) {
   *   TrafficPlan plan = Snapshot.fetchListener(client, "payments.example.com", Duration.ofSeconds(5)).plan();
   * }
   * }</pre>
   *
   * @param client the client to fetch with (its node, server and credentials); the caller owns it
   * @param listener the listener's name
   * @param timeout how long to wait for answers
   * @return the snapshot of what the client received
   * @throws BadInputException naming the listener when it does not exist or nothing answered in time
   * @throws InterruptedException if interrupted while waiting
   */
  public static Snapshot fetchListener(XdsClient client, String listener, Duration timeout)
      throws BadInputException, InterruptedException {
    return fetched(Fetcher.fetch(client, Fetcher.Root.LISTENER, listener, timeout));
  }

  /**
   * Fetches a cluster and its endpoints from a control plane through a jxds client, as an
   * {@code xds-cluster:///} channel would; otherwise as {@link #fetchListener}.
   *
   * @param client the client to fetch with; the caller owns it
   * @param cluster the cluster's name
   * @param timeout how long to wait for answers
   * @return the snapshot of what the client received
   * @throws BadInputException naming the cluster when it does not exist or nothing answered in time
   * @throws InterruptedException if interrupted while waiting
   */
  public static Snapshot fetchCluster(XdsClient client, String cluster, Duration timeout)
      throws BadInputException, InterruptedException {
    return fetched(Fetcher.fetch(client, Fetcher.Root.CLUSTER, cluster, timeout));
  }

  private static Snapshot fetched(Fetched fetched) {
    return new Snapshot(fetched.resources(), fetched.rejections(), fetched.notes());
  }

  /**
   * This snapshot's resources followed by {@code other}'s (a later resource of a name wins).
   *
   * @param other more resources
   * @return the combined snapshot
   */
  public Snapshot plus(Snapshot other) {
    List<XdsResource> list = new ArrayList<>(resources);
    list.addAll(other.resources);
    List<String> allNotes = new ArrayList<>(notes);
    allNotes.addAll(other.notes);
    List<ResourceVerdict> verdicts = new ArrayList<>(clientVerdicts);
    verdicts.addAll(other.clientVerdicts);
    return new Snapshot(list, verdicts, allNotes);
  }

  /**
   * The resources, in order.
   *
   * @return the resources
   */
  public List<XdsResource> resources() {
    return resources;
  }

  /**
   * What reading skipped or ignored: config-dump sections a gRPC client does not read, JSON fields
   * unknown to jxds's envoy API.
   *
   * @return one line each
   */
  public List<String> notes() {
    return notes;
  }

  /**
   * Validates every resource as jxds's client would.
   *
   * @return the verdicts
   */
  public CheckReport check() {
    return Checker.check(resources, clientVerdicts, notes).report();
  }

  /**
   * The traffic plan of every cluster, computed by the balancer's own rules.
   *
   * @return the plan, with the check it was built on
   */
  public TrafficPlan plan() {
    return Planner.plan(Checker.check(resources, clientVerdicts, notes));
  }

  @Override
  public String toString() {
    return "Snapshot{" + resources.size() + " resources}";
  }

  /** The type an {@code Any} given alone is decoded as: its own, or its Resource wrapper's inner one. */
  private static String decodedAs(Any any) {
    if (!any.getTypeUrl().equals(ResourceType.RESOURCE_WRAPPER_TYPE_URL)) {
      return any.getTypeUrl();
    }
    try {
      return Resource.parseFrom(any.getValue()).getResource().getTypeUrl();
    } catch (InvalidProtocolBufferException e) {
      return any.getTypeUrl();
    }
  }

  private static byte[] readBytes(Path file) throws BadInputException {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new BadInputException(file + ": cannot read: no such file", e);
    } catch (IOException | SecurityException e) {
      throw new BadInputException(file + ": cannot read: " + e.getMessage(), e);
    }
  }
}
