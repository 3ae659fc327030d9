/**
 * The gRPC xDS bootstrap: where it is read from ({@link io.jxds.client.bootstrap.BootstrapLoader}),
 * how it is parsed ({@link io.jxds.client.internal.bootstrap.BootstrapParser}) and what it holds
 * ({@link io.jxds.client.bootstrap.Bootstrap}).
 */
package io.jxds.client.bootstrap;
