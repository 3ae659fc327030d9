package io.jxds.toolkit.internal.read;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A JSON object's members in order, in two arrays: most objects of an xDS document have one to
 * four members, and a LinkedHashMap per object was most of the parsed tree's memory. Lookups are
 * linear up to {@link #LINEAR} members, through an index by name beyond (a Struct may hold
 * thousands). Immutable once parsed; a member given twice keeps its first place and its last
 * value, as a LinkedHashMap would.
 */
final class Members extends AbstractMap<String, JsonNode> {
  /** Objects with more members than this are looked up through {@link #index}. */
  static final int LINEAR = 16;

  private String[] keys = new String[4];
  private JsonNode[] values = new JsonNode[4];
  private int size;
  /** Each key's position, once there are more than {@link #LINEAR} members. */
  private HashMap<String, Integer> index;

  /** Adds, or replaces the value of a member given before. */
  void add(String key, JsonNode value) {
    int at = indexOf(key);
    if (at >= 0) {
      values[at] = value;
      return;
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    keys[size] = key;
    values[size++] = value;
    if (index != null) {
      index.put(key, size - 1);
    } else if (size > LINEAR) {
      index = new HashMap<>();
      for (int i = 0; i < size; i++) {
        index.put(keys[i], i);
      }
    }
  }

  private int indexOf(Object key) {
    if (index != null) {
      Integer at = index.get(key);
      return at == null ? -1 : at;
    }
    for (int i = 0; i < size; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public JsonNode get(Object key) {
    int at = indexOf(key);
    return at < 0 ? null : values[at];
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Set<Map.Entry<String, JsonNode>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, JsonNode>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < size;
          }

          @Override
          public Map.Entry<String, JsonNode> next() {
            if (next >= size) {
              throw new NoSuchElementException();
            }
            Map.Entry<String, JsonNode> e = new SimpleImmutableEntry<>(keys[next], values[next]);
            next++;
            return e;
          }
        };
      }

      @Override
      public int size() {
        return size;
      }
    };
  }
}
