package io.olmstead.controlplane.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What an image the poms build runs, read from the Jib configuration (the parent pom's shared part,
 * then the module's): the entrypoint is {@code java <jvmFlags> -cp <classpath> <mainClass>}, the
 * default arguments, the user and the environment the image sets.
 */
record JibImage(
    List<String> jvmFlags,
    String mainClass,
    List<String> args,
    String user,
    Map<String, String> environment) {
  static final Path ROOT = Path.of("..", "..");

  /**
   * The image of {@code module} (a folder under the repository root, e.g. {@code
   * cluster-agent/agent}).
   */
  static JibImage of(String module) throws Exception {
    Element parent = parse(ROOT.resolve("pom.xml"));
    Element shared = container(parent);
    Element own = container(parse(ROOT.resolve(module).resolve("pom.xml")));
    List<String> flags = list(own, "jvmFlags");
    Map<String, String> properties = new LinkedHashMap<>(map(child(parent, "properties"), null));
    properties.put("project.version", text(parent, "version").orElseThrow());
    Map<String, String> environment = new LinkedHashMap<>();
    map(shared, "environment").forEach((k, v) -> environment.put(k, interpolate(v, properties)));
    map(own, "environment").forEach((k, v) -> environment.put(k, interpolate(v, properties)));
    return new JibImage(
        flags.isEmpty() ? list(shared, "jvmFlags") : flags,
        text(own, "mainClass").orElseThrow(),
        list(own, "args"),
        text(own, "user").or(() -> text(shared, "user")).orElseThrow(),
        environment);
  }

  /**
   * The entrypoint with the image's classpath replaced by {@code jar} (the shaded jar holds the
   * same classes).
   */
  List<String> command(String java, Path jar, List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmFlags);
    command.addAll(List.of("-cp", jar.toAbsolutePath().normalize().toString(), mainClass));
    command.addAll(arguments.isEmpty() ? args : arguments);
    return command;
  }

  int uid() {
    return Integer.parseInt(user.split(":")[0]);
  }

  int gid() {
    String[] parts = user.split(":");
    return Integer.parseInt(parts[parts.length - 1]);
  }

  /** The value of a {@code -D} system property among the flags. */
  Optional<String> systemProperty(String name) {
    return jvmFlags.stream()
        .filter(f -> f.startsWith("-D" + name + "="))
        .map(f -> f.substring(name.length() + 3))
        .findFirst();
  }

  /**
   * {@code ${name}} replaced by the parent pom's property (the images' properties are all there).
   */
  private static String interpolate(String value, Map<String, String> properties) {
    String result = value;
    for (Map.Entry<String, String> property : properties.entrySet()) {
      result = result.replace("${" + property.getKey() + "}", property.getValue());
    }
    return result;
  }

  private static Element parse(Path pom) throws Exception {
    var factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
  }

  private static Element container(Element pom) {
    NodeList plugins = pom.getElementsByTagName("plugin");
    for (int i = 0; i < plugins.getLength(); i++) {
      Element plugin = (Element) plugins.item(i);
      if (text(plugin, "artifactId").filter("jib-maven-plugin"::equals).isPresent()) {
        Element configuration = child(plugin, "configuration");
        if (configuration != null && child(configuration, "container") != null) {
          return child(configuration, "container");
        }
      }
    }
    throw new IllegalStateException("a pom configures no Jib container");
  }

  private static Element child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  private static Optional<String> text(Element parent, String name) {
    return Optional.ofNullable(child(parent, name)).map(e -> e.getTextContent().trim());
  }

  private static List<String> list(Element parent, String name) {
    List<String> values = new ArrayList<>();
    Element list = child(parent, name);
    for (Node n = list == null ? null : list.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        values.add(e.getTextContent().trim());
      }
    }
    return values;
  }

  private static Map<String, String> map(Element parent, String name) {
    Map<String, String> values = new LinkedHashMap<>();
    Element map = name == null ? parent : child(parent, name);
    for (Node n = map == null ? null : map.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        values.put(e.getTagName(), e.getTextContent().trim());
      }
    }
    return values;
  }
}
