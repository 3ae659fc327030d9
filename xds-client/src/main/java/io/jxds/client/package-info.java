/**
 * The jxds xDS client: {@link io.jxds.client.DefaultXdsClient} (one ADS stream, per-resource
 * cache), built with {@link io.jxds.client.XdsClientBuilder} or shared per bootstrap through
 * {@link io.jxds.client.XdsClientPool}.
 *
 * <p>Pre-1.0: this API may change before 1.0.
 */
package io.jxds.client;
