/**
 * The per-resource cache of an xDS client: subscriptions, watchers, values, does-not-exist and
 * retention timers, and the A46 rules for applying a response. Not API: public only so that the
 * client package can use it; it may change in any release.
 */
package io.jxds.client.internal.cache;
