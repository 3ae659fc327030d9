package io.jxds.toolkit.internal.read;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A small JSON object's members in order, in two arrays: most objects of an xDS document have one
 * to four members, and a LinkedHashMap per object was most of the parsed tree's memory. Immutable
 * once parsed; a member given twice keeps its first place and its last value, as a LinkedHashMap
 * would.
 */
final class Members extends AbstractMap<String, JsonNode> {
  /** Objects with more members than this are parsed into a LinkedHashMap (lookups here are linear). */
  static final int MAX = 16;

  private String[] keys = new String[4];
  private JsonNode[] values = new JsonNode[4];
  private int size;

  /** Adds or replaces; false when full (the caller moves to a LinkedHashMap). */
  boolean add(String key, JsonNode value) {
    for (int i = 0; i < size; i++) {
      if (keys[i].equals(key)) {
        values[i] = value;
        return true;
      }
    }
    if (size == MAX) {
      return false;
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    keys[size] = key;
    values[size++] = value;
    return true;
  }

  @Override
  public JsonNode get(Object key) {
    for (int i = 0; i < size; i++) {
      if (keys[i].equals(key)) {
        return values[i];
      }
    }
    return null;
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
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
