/**
 * Client Status Discovery Service (gRFC A40): what every jxds xDS client of the process holds,
 * served as {@code envoy.service.status.v3.ClientStatusDiscoveryService} by {@link
 * io.jxds.client.csds.XdsCsdsService}.
 */
package io.jxds.client.csds;
