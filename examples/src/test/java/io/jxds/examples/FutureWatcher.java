package io.jxds.examples;

import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import java.util.concurrent.CompletableFuture;

/** A watcher that completes a future with the first value, or fails it on absence or an error. */
final class FutureWatcher<T> implements ResourceWatcher<T> {
  final CompletableFuture<T> value = new CompletableFuture<>();

  @Override
  public void onUpdate(T update) {
    value.complete(update);
  }

  @Override
  public void onResourceDoesNotExist(String resourceName) {
    value.completeExceptionally(new AssertionError(resourceName + " does not exist"));
  }

  @Override
  public void onError(Status error) {
    value.completeExceptionally(error.asException());
  }
}
