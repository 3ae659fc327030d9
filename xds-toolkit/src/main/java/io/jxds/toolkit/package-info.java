/**
 * What a gRPC client does with a control plane's xDS resources, without running one: read them
 * ({@link io.jxds.toolkit.Snapshot}), see which ones jxds would accept and the exact NACK text of
 * the others ({@link io.jxds.toolkit.CheckReport}), the traffic plan per cluster computed by the
 * balancer's own rules ({@link io.jxds.toolkit.TrafficPlan}), and what a push would change
 * ({@link io.jxds.toolkit.PlanDiff}). Assertions on all of them are in {@code io.jxds.toolkit.assertj}.
 */
@NullMarked
package io.jxds.toolkit;

import org.jspecify.annotations.NullMarked;
