package io.jxds.client;

import io.grpc.Status;
import io.jxds.api.ResourceWatcher;
import java.util.ArrayList;
import java.util.List;

/** Records every callback as an event, in order. Thread-safe. */
class RecordingWatcher<T> implements ResourceWatcher<T> {
  sealed interface Event permits Update, DoesNotExist, Error {}

  record Update<T>(T value) implements Event {}

  record DoesNotExist(String name) implements Event {}

  record Error(Status status) implements Event {}

  private final List<Event> events = new ArrayList<>();

  @Override
  public synchronized void onUpdate(T value) {
    events.add(new Update<>(value));
  }

  @Override
  public synchronized void onResourceDoesNotExist(String resourceName) {
    events.add(new DoesNotExist(resourceName));
  }

  @Override
  public synchronized void onError(Status error) {
    events.add(new Error(error));
  }

  synchronized List<Event> events() {
    return List.copyOf(events);
  }

  synchronized Event last() {
    return events.isEmpty() ? null : events.get(events.size() - 1);
  }

  @SuppressWarnings("unchecked")
  synchronized List<T> updates() {
    List<T> out = new ArrayList<>();
    for (Event e : events) {
      if (e instanceof Update<?> u) {
        out.add((T) u.value());
      }
    }
    return out;
  }

  synchronized List<Status> errors() {
    List<Status> out = new ArrayList<>();
    for (Event e : events) {
      if (e instanceof Error err) {
        out.add(err.status());
      }
    }
    return out;
  }

  synchronized List<String> absences() {
    List<String> out = new ArrayList<>();
    for (Event e : events) {
      if (e instanceof DoesNotExist d) {
        out.add(d.name());
      }
    }
    return out;
  }

  synchronized void clear() {
    events.clear();
  }
}
