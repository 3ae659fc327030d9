/**
 * The jxds vocabulary: the {@link io.jxds.api.XdsClient} contract, resource types and watchers,
 * and a client's status.
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.api;

import org.jspecify.annotations.NullMarked;
