/**
 * The gRPC xDS bootstrap: where it is read from ({@link io.jxds.client.bootstrap.BootstrapLoader}),
 * how it is parsed ({@link io.jxds.client.internal.bootstrap.BootstrapParser}) and what it holds
 * ({@link io.jxds.client.bootstrap.Bootstrap}).
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.client.bootstrap;

import org.jspecify.annotations.NullMarked;
