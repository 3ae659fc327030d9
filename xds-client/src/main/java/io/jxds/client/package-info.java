/**
 * The jxds xDS client: {@link io.jxds.client.DefaultXdsClient} (one ADS stream, per-resource
 * cache), built with {@link io.jxds.client.XdsClientBuilder} or shared per bootstrap through
 * {@link io.jxds.client.XdsClientPool}.
 */
package io.jxds.client;
