import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.annotation.Documented;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.AnnotatedTypeVariable;
import java.lang.reflect.AnnotatedWildcardType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes or checks one module's public API file (CONTRIBUTING.md, "The public API").
 *
 * <p>The API is every public type of a package without an {@code internal} segment, with its
 * public members and, where a subclass can reach them, its protected ones: their modifiers,
 * generic signatures, {@code @Nullable} and other documented annotations, and the values of
 * constants (which compilers copy into callers). One line each, sorted, so that the file changes
 * only when the API does. Run from the build (each published module's pom) as
 *
 * <pre>java -cp RUNTIME_CLASSPATH ApiSignatures.java ROOT CLASSES API_FILE UPDATE</pre>
 *
 * and exits 1 with a diff when the classes do not match the file and UPDATE is false.
 */
public final class ApiSignatures {
  private static final String UPDATE_COMMAND = "./mvnw -B verify -DskipTests -Djxds.api.update=true";
  private static final int CONTEXT = 3;

  private ApiSignatures() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]).toAbsolutePath().normalize();
    Path classes = Path.of(args[1]).toAbsolutePath().normalize();
    Path apiFile = Path.of(args[2]).toAbsolutePath().normalize();
    boolean update = Boolean.parseBoolean(args[3]);
    String shown = root.relativize(apiFile).toString();

    List<String> actual = dump(classes);
    if (update) {
      Files.createDirectories(apiFile.getParent());
      Files.writeString(apiFile, String.join("\n", actual) + "\n", StandardCharsets.UTF_8);
      System.out.println("[api] wrote " + shown);
      return;
    }
    List<String> expected = Files.exists(apiFile)
        ? Files.readAllLines(apiFile, StandardCharsets.UTF_8)
        : List.of();
    if (expected.equals(actual)) {
      System.out.println("[api] " + shown + ": unchanged");
      return;
    }
    StringBuilder out = new StringBuilder();
    if (Files.exists(apiFile)) {
      out.append("[api] the public API differs from ").append(shown).append(":\n")
          .append("--- ").append(shown).append(" (committed)\n")
          .append("+++ ").append(root.relativize(classes)).append(" (built)\n");
      diff(expected, actual, out);
    } else {
      out.append("[api] ").append(shown).append(" is missing.\n");
    }
    out.append("[api] If the change is meant, write the new file and commit it with the change:\n")
        .append("[api]   ").append(UPDATE_COMMAND).append('\n');
    System.err.print(out);
    System.exit(1);
  }

  // ---------------------------------------------------------------------------------------------
  // The dump

  static List<String> dump(Path classes) throws IOException, ClassNotFoundException {
    ClassLoader loader = ClassLoader.getSystemClassLoader();
    TreeMap<String, List<String>> byPackage = new TreeMap<>();
    TreeMap<String, List<String>> byClass = new TreeMap<>();
    List<String> leaks = new ArrayList<>();
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
        String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
        name = name.substring(0, name.length() - ".class".length());
        if (name.endsWith("module-info") || name.endsWith("package-info") || !exported(name)) {
          continue;
        }
        Class<?> c = Class.forName(name, false, loader);
        if (!isApi(c)) {
          continue;
        }
        String pkg = c.getPackageName();
        byPackage.computeIfAbsent(pkg, p -> List.of(packageLine(c)));
        List<String> lines = classLines(c);
        for (String line : lines) {
          if (line.matches(".*\\.internal\\..*")) {
            leaks.add(line.trim());
          }
        }
        byClass.put(pkg + " " + c.getName(), lines);
      }
    }
    if (!leaks.isEmpty()) {
      System.err.println("[api] the API names types of internal packages, which any release may change:");
      leaks.forEach(l -> System.err.println("[api]   " + l));
      System.exit(1);
    }
    List<String> out = new ArrayList<>();
    out.add("# The public API of this module, checked by the build: see CONTRIBUTING.md, \"The public API\".");
    out.add("# Update: " + UPDATE_COMMAND);
    String current = null;
    for (var entry : byClass.entrySet()) {
      String pkg = entry.getKey().substring(0, entry.getKey().indexOf(' '));
      if (!pkg.equals(current)) {
        out.add("");
        out.addAll(byPackage.get(pkg));
        current = pkg;
      }
      out.add("");
      out.addAll(entry.getValue());
    }
    return out;
  }

  private static boolean exported(String className) {
    return !Arrays.asList(className.split("\\.")).contains("internal");
  }

  private static boolean isApi(Class<?> c) {
    if (c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) {
      return false;
    }
    Class<?> outer = c.getDeclaringClass();
    if (outer == null) {
      return Modifier.isPublic(c.getModifiers());
    }
    return isApi(outer) && reachable(c.getModifiers(), outer);
  }

  /** Public, or protected in a class a user may extend. */
  private static boolean reachable(int modifiers, Class<?> owner) {
    return Modifier.isPublic(modifiers)
        || (Modifier.isProtected(modifiers) && !Modifier.isFinal(owner.getModifiers()) && !owner.isInterface());
  }

  private static String packageLine(Class<?> c) {
    String annotations = annotations(c.getPackage());
    return "package " + c.getPackageName() + (annotations.isEmpty() ? "" : " " + annotations.trim());
  }

  private static List<String> classLines(Class<?> c) {
    List<String> lines = new ArrayList<>();
    lines.add(header(c));
    List<String> fields = new ArrayList<>();
    for (Field f : c.getDeclaredFields()) {
      if (!f.isSynthetic() && reachable(f.getModifiers(), c)) {
        fields.add("  " + field(f));
      }
    }
    List<String> constructors = new ArrayList<>();
    for (Constructor<?> k : c.getDeclaredConstructors()) {
      if (!k.isSynthetic() && reachable(k.getModifiers(), c)) {
        constructors.add("  " + executable(k, c));
      }
    }
    List<String> methods = new ArrayList<>();
    for (Method m : c.getDeclaredMethods()) {
      if (!m.isSynthetic() && !m.isBridge() && reachable(m.getModifiers(), c)) {
        methods.add("  " + executable(m, c));
      }
    }
    fields.sort(null);
    constructors.sort(null);
    methods.sort(null);
    lines.addAll(fields);
    lines.addAll(constructors);
    lines.addAll(methods);
    return lines;
  }

  private static String header(Class<?> c) {
    int mods = c.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL
        | Modifier.ABSTRACT);
    String kind;
    if (c.isAnnotation()) {
      kind = "@interface";
      mods &= ~(Modifier.ABSTRACT | Modifier.STATIC);
    } else if (c.isInterface()) {
      kind = "interface";
      mods &= ~(Modifier.ABSTRACT | Modifier.STATIC);
    } else if (c.isEnum()) {
      kind = "enum";
    } else if (c.isRecord()) {
      kind = "record";
    } else {
      kind = "class";
    }
    StringBuilder b = new StringBuilder(annotations(c));
    b.append(modifiers(mods)).append(c.isSealed() ? "sealed " : "").append(kind).append(' ')
        .append(c.getCanonicalName()).append(typeParameters(c.getTypeParameters()));
    if (c.isRecord()) {
      b.append(Arrays.stream(c.getRecordComponents()).map(ApiSignatures::component)
          .collect(Collectors.joining(", ", "(", ")")));
    }
    AnnotatedType superclass = c.getAnnotatedSuperclass();
    if (superclass != null && !c.isEnum() && !c.isRecord() && superclass.getType() != Object.class) {
      b.append(" extends ").append(type(superclass));
    }
    AnnotatedType[] interfaces = c.getAnnotatedInterfaces();
    if (interfaces.length > 0 && !c.isAnnotation()) {
      b.append(c.isInterface() ? " extends " : " implements ")
          .append(Arrays.stream(interfaces).map(ApiSignatures::type).collect(Collectors.joining(", ")));
    }
    if (c.isSealed()) {
      b.append(" permits ").append(Arrays.stream(c.getPermittedSubclasses()).map(Class::getName).sorted()
          .collect(Collectors.joining(", ")));
    }
    return b.toString();
  }

  private static String component(RecordComponent rc) {
    return type(rc.getAnnotatedType()) + " " + rc.getName();
  }

  private static String field(Field f) {
    String value = "";
    int mods = f.getModifiers();
    if (Modifier.isStatic(mods) && Modifier.isFinal(mods)
        && (f.getType().isPrimitive() || f.getType() == String.class)) {
      // A compile-time constant is copied into the code that uses it: its value is API.
      try {
        f.setAccessible(true);
        value = " = " + literal(f.get(null));
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        value = " = ?";
      }
    }
    return annotations(f) + modifiers(mods & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC
        | Modifier.FINAL | Modifier.VOLATILE | Modifier.TRANSIENT)) + type(f.getAnnotatedType()) + " "
        + f.getName() + value;
  }

  private static String literal(Object value) {
    if (value instanceof String s) {
      StringBuilder b = new StringBuilder("\"");
      for (char ch : s.toCharArray()) {
        switch (ch) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          case '\n' -> b.append("\\n");
          default -> {
            if (ch < 0x20 || ch > 0x7e) {
              b.append(String.format("\\u%04x", (int) ch));
            } else {
              b.append(ch);
            }
          }
        }
      }
      return b.append('"').toString();
    }
    if (value instanceof Character ch) {
      return "'" + ch + "'";
    }
    return String.valueOf(value);
  }

  private static String executable(Executable e, Class<?> owner) {
    int mods = e.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.STATIC | Modifier.FINAL
        | Modifier.ABSTRACT | Modifier.SYNCHRONIZED);
    mods &= ~Modifier.SYNCHRONIZED; // how, not what
    StringBuilder b = new StringBuilder(annotations(e)).append(modifiers(mods));
    if (e instanceof Method m && m.isDefault()) {
      b.append("default ");
    }
    String typeParameters = typeParameters(e.getTypeParameters());
    if (!typeParameters.isEmpty()) {
      b.append(typeParameters).append(' ');
    }
    if (e instanceof Method m) {
      b.append(type(m.getAnnotatedReturnType())).append(' ').append(m.getName());
    } else {
      b.append(owner.getSimpleName());
    }
    AnnotatedType[] parameters = e.getAnnotatedParameterTypes();
    List<String> rendered = new ArrayList<>();
    for (int i = 0; i < parameters.length; i++) {
      String p = type(parameters[i]);
      if (e.isVarArgs() && i == parameters.length - 1 && p.endsWith("[]")) {
        p = p.substring(0, p.length() - 2) + "...";
      }
      rendered.add(p);
    }
    b.append(rendered.stream().collect(Collectors.joining(", ", "(", ")")));
    AnnotatedType[] exceptions = e.getAnnotatedExceptionTypes();
    if (exceptions.length > 0) {
      b.append(" throws ").append(Arrays.stream(exceptions).map(ApiSignatures::type).sorted()
          .collect(Collectors.joining(", ")));
    }
    return b.toString();
  }

  private static String modifiers(int mods) {
    String s = Modifier.toString(mods);
    return s.isEmpty() ? "" : s + " ";
  }

  private static String typeParameters(TypeVariable<?>[] variables) {
    if (variables.length == 0) {
      return "";
    }
    List<String> out = new ArrayList<>();
    for (TypeVariable<?> v : variables) {
      AnnotatedType[] bounds = v.getAnnotatedBounds();
      boolean plain = bounds.length == 1 && bounds[0].getType() == Object.class
          && bounds[0].getAnnotations().length == 0;
      out.add(annotations(v) + v.getName() + (plain ? "" : " extends "
          + Arrays.stream(bounds).map(ApiSignatures::type).collect(Collectors.joining(" & "))));
    }
    return out.stream().collect(Collectors.joining(", ", "<", ">"));
  }

  /** A type as source would write it, with its type-use annotations ({@code @Nullable}). */
  private static String type(AnnotatedType t) {
    String annotations = annotations(t);
    if (t instanceof AnnotatedArrayType array) {
      return type(array.getAnnotatedGenericComponentType()) + (annotations.isEmpty() ? "" : " " + annotations.trim())
          + "[]";
    }
    if (t instanceof AnnotatedParameterizedType parameterized) {
      ParameterizedType p = (ParameterizedType) parameterized.getType();
      return annotations + name((Class<?>) p.getRawType()) + Arrays.stream(
              parameterized.getAnnotatedActualTypeArguments()).map(ApiSignatures::type)
          .collect(Collectors.joining(", ", "<", ">"));
    }
    if (t instanceof AnnotatedWildcardType wildcard) {
      AnnotatedType[] lower = wildcard.getAnnotatedLowerBounds();
      AnnotatedType[] upper = wildcard.getAnnotatedUpperBounds();
      if (lower.length > 0) {
        return annotations + "? super " + type(lower[0]);
      }
      if (upper.length == 0 || (upper[0].getType() == Object.class && upper[0].getAnnotations().length == 0)) {
        return annotations + "?";
      }
      return annotations + "? extends " + type(upper[0]);
    }
    if (t instanceof AnnotatedTypeVariable variable) {
      return annotations + ((TypeVariable<?>) variable.getType()).getName();
    }
    Type raw = t.getType();
    return annotations + (raw instanceof Class<?> c ? name(c) : raw.getTypeName());
  }

  private static String name(Class<?> c) {
    return c.getCanonicalName() != null ? c.getCanonicalName() : c.getName();
  }

  /** The documented annotations on an element (what Javadoc shows), each followed by a space. */
  private static String annotations(AnnotatedElement element) {
    StringBuilder b = new StringBuilder();
    Annotation[] all = element instanceof AnnotatedType t ? t.getAnnotations() : element.getDeclaredAnnotations();
    Arrays.stream(all)
        .map(Annotation::annotationType)
        .filter(type -> type.isAnnotationPresent(Documented.class))
        .map(ApiSignatures::annotationName)
        .sorted()
        .forEach(name -> b.append('@').append(name).append(' '));
    return b.toString();
  }

  private static String annotationName(Class<? extends Annotation> type) {
    String pkg = type.getPackageName();
    return pkg.equals("java.lang") || pkg.equals("org.jspecify.annotations") ? type.getSimpleName() : name(type);
  }

  // ---------------------------------------------------------------------------------------------
  // The diff: a unified diff of the two line lists (longest common subsequence), CONTEXT lines
  // around each change.

  static void diff(List<String> a, List<String> b, StringBuilder out) {
    int n = a.size();
    int m = b.size();
    int[][] lcs = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    // Each edit: ' ', '-' or '+', with the line and its position in a and in b.
    List<String[]> edits = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a.get(i).equals(b.get(j))) {
        edits.add(new String[] {" ", a.get(i), String.valueOf(i), String.valueOf(j)});
        i++;
        j++;
      } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
        edits.add(new String[] {"+", b.get(j), String.valueOf(i), String.valueOf(j)});
        j++;
      } else {
        edits.add(new String[] {"-", a.get(i), String.valueOf(i), String.valueOf(j)});
        i++;
      }
    }
    int k = 0;
    while (k < edits.size()) {
      if (edits.get(k)[0].equals(" ")) {
        k++;
        continue;
      }
      int start = Math.max(0, k - CONTEXT);
      int end = k;
      int lastChange = k;
      while (end < edits.size() && end - lastChange <= 2 * CONTEXT) {
        if (!edits.get(end)[0].equals(" ")) {
          lastChange = end;
        }
        end++;
      }
      end = Math.min(edits.size(), lastChange + CONTEXT + 1);
      int aStart = Integer.parseInt(edits.get(start)[2]);
      int bStart = Integer.parseInt(edits.get(start)[3]);
      int aCount = 0;
      int bCount = 0;
      for (int e = start; e < end; e++) {
        aCount += edits.get(e)[0].equals("+") ? 0 : 1;
        bCount += edits.get(e)[0].equals("-") ? 0 : 1;
      }
      out.append("@@ -").append(aStart + 1).append(',').append(aCount)
          .append(" +").append(bStart + 1).append(',').append(bCount).append(" @@\n");
      for (int e = start; e < end; e++) {
        out.append(edits.get(e)[0]).append(edits.get(e)[1]).append('\n');
      }
      k = end;
    }
  }
}
