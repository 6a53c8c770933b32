package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The images deploy/ runs are the ones the poms build (profile images, docs/images.md): same
 * registry prefix, same names, tagged with the project version; and the images profile is not part
 * of the default build.
 */
class DeployImagesTest {
  private static final Path ROOT = Path.of("..", "..");
  private static final Pattern IMAGE =
      Pattern.compile("(?:image:|value:)\\s*\"?(ghcr\\.io/olmstead/[^\\s\"]+)");

  private static String property(String pom, String name) {
    Matcher m =
        Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">")
            .matcher(pom);
    assertThat(m.find()).as(name).isTrue();
    return m.group(1);
  }

  /**
   * image name -> its reference as the module pom names it, with the parent's properties filled in.
   */
  private static Map<String, String> built() throws IOException {
    String parent = Files.readString(ROOT.resolve("pom.xml"));
    String version = property(parent, "version");
    String prefix = property(parent, "olmstead.image.prefix");
    Map<String, String> images = new TreeMap<>();
    for (String module : List.of("control-plane/server", "cluster-agent/agent")) {
      String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
      assertThat(pom)
          .as(module + ": images only in the images profile")
          .containsOnlyOnce("jib-maven-plugin");
      assertThat(pom.indexOf("<id>images</id>"))
          .as(module + " has the images profile")
          .isPositive()
          .isLessThan(pom.indexOf("jib-maven-plugin"));
      Matcher to = Pattern.compile("<to>\\s*<image>([^<]+)</image>").matcher(pom);
      assertThat(to.find()).as(module + " names its image").isTrue();
      String reference =
          to.group(1)
              .replace("${olmstead.image.prefix}", prefix)
              .replace("${project.version}", version);
      images.put(reference.substring(prefix.length() + 1, reference.lastIndexOf(':')), reference);
    }
    return images;
  }

  @Test
  void thePomsBuildTheControlPlaneAndAgentImagesAtTheProjectVersion() throws IOException {
    String version = property(Files.readString(ROOT.resolve("pom.xml")), "version");
    assertThat(built())
        .containsEntry("control-plane", "ghcr.io/olmstead/control-plane:" + version)
        .containsEntry("agent", "ghcr.io/olmstead/agent:" + version);
  }

  @Test
  void everyOlmsteadImageDeployNamesIsOneThePomsBuild() throws IOException {
    Map<String, String> built = built();
    List<String> named = new ArrayList<>();
    try (Stream<Path> files = Files.walk(ROOT.resolve("deploy"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
        Matcher m = IMAGE.matcher(Files.readString(file));
        while (m.find()) {
          named.add(m.group(1));
          assertThat(built.values()).as(file + " names " + m.group(1)).contains(m.group(1));
        }
      }
    }
    assertThat(named).containsAll(built.values());
  }
}
