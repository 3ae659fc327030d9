/**
 * The jxds test fixtures: artifact (and folder) {@code xds-test-fixtures}, all in this package.
 * They depend on no jxds module, so every jxds module's tests use them, and any xDS client can be
 * tested against them. The one fixture elsewhere is
 * {@code FakeXdsClient}, an in-memory {@code XdsClient} for unit tests of code that watches
 * resources: it implements the jxds API, so it ships with it, in xds-api ({@code
 * io.jxds.api.testing}).
 *
 * <ul>
 *   <li>{@link XdsTestBed}: a JUnit 5 extension with everything a test of "my resources route a
 *       jxds channel so" needs: a {@link FakeAdsServer}, the bootstrap, {@link TestBackend}s that
 *       count what they serve, channels, and a wait for traffic shares.
 *   <li>{@link FakeAdsServer}: an ADS control plane (state of the world and delta) whose resources,
 *       faults and observations a test controls; {@link FakeAdsServerExtension} gives each test
 *       one; {@link FakeAdsBootstrap} writes a bootstrap that points at it.
 *   <li>{@link XdsResources} and {@link IstioResources}: fluent builders of envoy v3 Listener,
 *       RouteConfiguration, Cluster and ClusterLoadAssignment protos.
 *   <li>{@link FakeClock}, {@link TestRandom}, {@link Poll}: deterministic time, seeded randomness,
 *       bounded waits on real threads; {@link FakeLbHelper} for load-balancer unit tests; {@link
 *       TestPki} for certificates; {@link InMemoryMetrics} for OpenTelemetry metrics.
 * </ul>
 *
 * <h2>FakeAdsServer's protocol</h2>
 *
 * <p>{@link FakeAdsServer} behaves as real control planes do, in these exact ways:
 *
 * <ul>
 *   <li><b>Versions.</b> Each type has its own version, {@code "1"}, {@code "2"}, ...; every call
 *       that sets, puts or removes resources of a type bumps it, even when nothing changed.
 *   <li><b>Pushes.</b> A change is pushed to every stream subscribed to the type. Listener and
 *       Cluster responses carry the full set (a name missing is a deletion); other types carry the
 *       names the stream subscribed that exist, and nothing is sent when that is none (a missing
 *       name means "unchanged").
 *   <li><b>Requests</b> are classified per stream and type ({@link RecordedRequest.Kind}) and
 *       recorded. A state-of-the-world request whose non-empty nonce is not the last one sent for
 *       its type on its stream is stale: recorded and ignored, names included. A type never
 *       served is recorded and not answered; {@code FakeAdsServer}'s four type URL constants are
 *       always served.
 *   <li><b>Answers.</b> The first request for a type on a stream gets the current resources, even
 *       if its {@code version_info} is current (a reconnecting client must get its data again, as
 *       from Envoy's and java-control-plane's servers). A later one is answered only if it adds
 *       names; removals, ACKs and NACKs are not (a NACKed version is not re-sent; the next change
 *       is). Nonces are unique for the server's life, across streams and restarts.
 *   <li><b>Delta streams</b> track per type the names subscribed and the version of each resource
 *       the client holds (sent, or named in {@code initial_resource_versions}); a response carries
 *       the subscribed resources whose version it lacks (a resource's version is its type's when
 *       it last changed) and, in {@code removed_resources}, held names that no longer exist. The
 *       first request for a type, or one that subscribes a new name, is answered.
 * </ul>
 */
@NullMarked
package io.jxds.testing;

import org.jspecify.annotations.NullMarked;
