package io.jxds.client.internal;

import java.util.Arrays;

/**
 * gRFC A47's {@code xdstp://AUTHORITY/TYPE/ID?PARAMS} resource names: checked and put in canonical
 * form, the query parameters sorted, so that names that differ only in the order of their
 * parameters are one resource. Any other name is opaque and left alone.
 *
 * <p>Worked example: {@code xdstp://td.example/envoy.config.cluster.v3.Cluster/a/b?z=1&a=2} is
 * canonically {@code xdstp://td.example/envoy.config.cluster.v3.Cluster/a/b?a=2&z=1}; its authority
 * is {@code td.example}.
 */
public final class XdstpName {
  /** What every {@code xdstp:} name starts with. */
  public static final String PREFIX = "xdstp://";
  private static final String TYPE_URL_PREFIX = "type.googleapis.com/";

  private XdstpName() {}

  /** Whether {@code name} is an {@code xdstp:} name (a prefix check: plain names pay nothing more). */
  public static boolean matches(String name) {
    return name.startsWith(PREFIX);
  }

  /**
   * The authority of an {@code xdstp:} name: what is between {@code xdstp://} and the next
   * {@code /} (empty for {@code xdstp:///...}). O(length of the authority).
   *
   * @param name an {@code xdstp:} name
   * @return its authority
   */
  public static String authority(String name) {
    int slash = name.indexOf('/', PREFIX.length());
    return slash < 0 ? name.substring(PREFIX.length()) : name.substring(PREFIX.length(), slash);
  }

  /**
   * Checks an {@code xdstp:} name of a resource of {@code typeUrl} and returns it in canonical form.
   *
   * @param name an {@code xdstp:} name
   * @param typeUrl the type URL of the watched type, e.g. {@code type.googleapis.com/envoy.config.cluster.v3.Cluster}
   * @return the name with its query parameters sorted (the same string when already canonical)
   * @throws IllegalArgumentException naming what is wrong: a bad {@code %}-escape, no resource
   *     type, a resource type other than the watched one, a fragment
   */
  public static String canonical(String name, String typeUrl) {
    checkEscapes(name);
    int pathStart = name.indexOf('/', PREFIX.length());
    if (pathStart < 0) {
      throw new IllegalArgumentException("no resource type after the authority");
    }
    int query = name.indexOf('?', pathStart);
    if (name.indexOf('#') >= 0) {
      throw new IllegalArgumentException("a fragment (#) is not allowed");
    }
    String path = name.substring(pathStart + 1, query < 0 ? name.length() : query);
    int typeEnd = path.indexOf('/');
    String type = typeEnd < 0 ? path : path.substring(0, typeEnd);
    String expected = typeUrl.startsWith(TYPE_URL_PREFIX) ? typeUrl.substring(TYPE_URL_PREFIX.length()) : typeUrl;
    if (!type.equals(expected)) {
      throw new IllegalArgumentException("resource type \"" + type + "\" is not " + expected);
    }
    if (typeEnd < 0) {
      throw new IllegalArgumentException("no resource id after the resource type");
    }
    if (query < 0 || name.indexOf('&', query) < 0) {
      return name; // zero or one parameter: canonical already
    }
    String[] params = name.substring(query + 1).split("&", -1);
    Arrays.sort(params);
    return name.substring(0, query + 1) + String.join("&", params);
  }

  /** The canonical form of a name received in a response, or the name as is when it is not a valid one. */
  public static String canonicalOrSelf(String name, String typeUrl) {
    if (!matches(name) || name.indexOf('?') < 0) {
      return name;
    }
    try {
      return canonical(name, typeUrl);
    } catch (IllegalArgumentException e) {
      return name;
    }
  }

  private static void checkEscapes(String name) {
    for (int i = name.indexOf('%'); i >= 0; i = name.indexOf('%', i + 1)) {
      if (i + 2 >= name.length() || Character.digit(name.charAt(i + 1), 16) < 0
          || Character.digit(name.charAt(i + 2), 16) < 0) {
        String bad = name.substring(i, Math.min(name.length(), i + 3));
        throw new IllegalArgumentException("bad percent-escape \"" + bad + "\" at index " + i);
      }
    }
  }
}
