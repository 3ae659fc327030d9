/**
 * Client Status Discovery Service (gRFC A40): what every jxds xDS client of the process holds,
 * served as {@code envoy.service.status.v3.ClientStatusDiscoveryService} by {@link
 * io.jxds.client.csds.XdsCsdsService}.
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.client.csds;

import org.jspecify.annotations.NullMarked;
