package io.jxds.client.cache;

import io.jxds.api.ResourceStatus;
import io.jxds.api.ResourceType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The subscribed resources of one type. Owned by the sync context. */
final class TypeCache<T> {
  final ResourceType<T> type;
  // A hash map for the per-resource lookups of a response, and the names kept sorted on the
  // side (binary-search insert) so that requests and status() list them in order without a sort.
  final Map<String, ResourceEntry<T>> entries = new HashMap<>();
  private final ArrayList<String> sortedNames = new ArrayList<>();
  private final List<String> sortedNamesView = Collections.unmodifiableList(sortedNames);
  /** Cached status() list; null after any entry changed. */
  List<ResourceStatus> statuses;

  TypeCache(ResourceType<T> type) {
    this.type = type;
  }

  void add(ResourceEntry<T> entry) {
    statuses = null;
    entries.put(entry.name, entry);
    int i = Collections.binarySearch(sortedNames, entry.name);
    sortedNames.add(-(i + 1), entry.name);
  }

  void remove(ResourceEntry<?> entry) {
    statuses = null;
    entries.remove(entry.name);
    int i = Collections.binarySearch(sortedNames, entry.name);
    if (i >= 0) {
      sortedNames.remove(i);
    }
  }

  /** This type's statuses, by name; rebuilt only after an entry changed. */
  List<ResourceStatus> statuses() {
    if (statuses == null) {
      List<ResourceStatus> out = new ArrayList<>(sortedNames.size());
      for (String name : sortedNames) {
        out.add(entries.get(name).status());
      }
      statuses = List.copyOf(out);
    }
    return statuses;
  }

  /** A live read-only view: use it before the sync context task ends. */
  List<String> sortedNames() {
    return sortedNamesView;
  }
}
