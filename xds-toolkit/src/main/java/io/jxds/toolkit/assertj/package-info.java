/**
 * AssertJ assertions on the toolkit's results, for a control plane's unit tests:
 *
 * <pre>{@code
 * import static io.jxds.toolkit.assertj.ToolkitAssertions.assertThat;
 *
 * assertThat(snapshot.plan()).cluster("payments").endpoint("10.0.0.3:8080").hasShare(0.375);
 * assertThat(snapshot.check()).rejects("payments-eds").withMessageContaining("priority");
 * }</pre>
 *
 * <p>AssertJ is an optional dependency of xds-toolkit: a test that uses these assertions has
 * {@code org.assertj:assertj-core} on its class path already (3.x).
 */
@NullMarked
package io.jxds.toolkit.assertj;

import org.jspecify.annotations.NullMarked;
