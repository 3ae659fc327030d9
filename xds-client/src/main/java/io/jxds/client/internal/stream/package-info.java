/**
 * The ADS stream of an xDS client: requests, ACK/NACK, flow control, reconnect with backoff. Not
 * API: public only so that the client package can use it; it may change in any release.
 */
package io.jxds.client.internal.stream;
