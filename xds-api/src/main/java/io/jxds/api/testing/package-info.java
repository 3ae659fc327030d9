/**
 * Test doubles for code that uses jxds: {@link io.jxds.api.testing.FakeXdsClient}, an in-memory
 * {@link io.jxds.api.XdsClient}.
 *
 * <p>Nothing here is null unless marked {@link org.jspecify.annotations.Nullable}. Pre-1.0: this
 * API may change before 1.0.
 */
@NullMarked
package io.jxds.api.testing;

import org.jspecify.annotations.NullMarked;
