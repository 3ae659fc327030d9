/**
 * The per-resource cache of an xDS client: where each name is on the wire and what is known about
 * it (ARCHITECTURE.md, "Glossary"), its watchers and timers, and the rules for applying a response.
 * Not API: public only so that the client package can use it; it may change in any release.
 */
package io.jxds.client.internal.cache;
