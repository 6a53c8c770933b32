package io.olmstead.controlplane.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's files as written: ES modules joined by imports (no globals but the one test
 * hook), one palette that holds every colour, and test hooks as {@code data-test} attributes rather
 * than style classes.
 */
class DashboardAssetsTest {
  private static final Path UI = Path.of("src/main/resources/webroot/ui");
  private static final String PALETTE = "palette.css";
  private static final Pattern COLOUR =
      Pattern.compile(
          "#[0-9a-fA-F]{3,8}\\b|\\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\\(",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(?:[^'\"]+\\s+from\\s+)?'\\./([\\w.-]+)';", Pattern.MULTILINE);
  private static final Pattern VAR = Pattern.compile("var\\((--[\\w-]+)|cssColour\\('(--[\\w-]+)");
  private static Map<String, String> files;

  @BeforeAll
  static void read() throws IOException {
    files = new LinkedHashMap<>();
    try (Stream<Path> list = Files.list(UI)) {
      for (Path p : list.sorted().toList()) {
        files.put(p.getFileName().toString(), Files.readString(p));
      }
    }
  }

  private static Map<String, String> scripts() {
    return files.entrySet().stream()
        .filter(e -> e.getKey().endsWith(".js"))
        .collect(
            Collectors.toMap(
                Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
  }

  @Test
  void theOnlyColourLiteralsAreThePalettes() {
    Map<String, List<String>> found = new LinkedHashMap<>();
    files.forEach(
        (name, text) -> {
          if (!name.equals(PALETTE)) {
            List<String> hits = COLOUR.matcher(text).results().map(m -> m.group()).toList();
            if (!hits.isEmpty()) {
              found.put(name, hits);
            }
          }
        });
    assertThat(found).as("colour literals outside " + PALETTE).isEmpty();
    assertThat(COLOUR.matcher(files.get(PALETTE)).results().count()).isGreaterThan(5);
  }

  @Test
  void everyColourVariableUsedIsDefinedInThePalette() {
    Set<String> defined =
        Pattern.compile("^\\s*(--[\\w-]+)\\s*:", Pattern.MULTILINE)
            .matcher(files.get(PALETTE))
            .results()
            .map(m -> m.group(1))
            .collect(Collectors.toSet());
    Set<String> used = new TreeSet<>();
    files.forEach(
        (name, text) ->
            VAR.matcher(text)
                .results()
                .forEach(m -> used.add(m.group(1) != null ? m.group(1) : m.group(2))));
    used.remove("--tone"); // set by the palette's tone-* classes
    used.removeIf(
        v ->
            v.endsWith("-")); // a prefix completed at run time (--colour- + meaning): checked below
    assertThat(used).isNotEmpty();
    assertThat(defined).containsAll(used);
    // each meaning palette.js can name has its variable and its tone class
    Set<String> meanings =
        Pattern.compile(": '([a-z-]+)'")
            .matcher(files.get("palette.js"))
            .results()
            .map(m -> m.group(1))
            .collect(Collectors.toCollection(TreeSet::new));
    meanings.add("unknown");
    for (String meaning : meanings) {
      assertThat(defined).as(meaning).contains("--colour-" + meaning);
      assertThat(files.get(PALETTE)).as(meaning).contains(".tone-" + meaning + " {");
    }
  }

  @Test
  void theScriptsAreModulesThatReachEachOtherByImportOnly() {
    String index = files.get("index.html");
    List<String> scripts =
        Pattern.compile("<script[^>]*>").matcher(index).results().map(MatchResult::group).toList();
    assertThat(scripts)
        .containsExactly(
            "<script defer src=\"lib/chart.js/4.4.1/dist/chart.umd.js\">",
            "<script type=\"module\" src=\"app.js\">");
    // every script file is reached from app.js through imports, and every import names a file that
    // exists
    Set<String> reached = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of("app.js"));
    while (!todo.isEmpty()) {
      String file = todo.pop();
      if (reached.add(file)) {
        assertThat(files).as("imported file").containsKey(file);
        IMPORT.matcher(files.get(file)).results().forEach(m -> todo.push(m.group(1)));
      }
    }
    assertThat(reached).containsExactlyInAnyOrderElementsOf(scripts().keySet());
    Pattern.compile("rel=\"modulepreload\" href=\"([\\w.-]+)\"")
        .matcher(index)
        .results()
        .forEach(m -> assertThat(reached).contains(m.group(1)));
    scripts()
        .forEach(
            (name, text) -> {
              assertThat(text).as(name).doesNotContain("'use strict'").doesNotContain("Olm.");
              // nothing shared through window but the test hook and the one library that is not a
              // module
              assertThat(
                      Pattern.compile("(?<![\\w.])window\\.(\\w+)")
                          .matcher(text)
                          .results()
                          .map(m -> m.group(1))
                          .toList())
                  .as(name)
                  .allMatch(g -> Set.of("olmsteadEvents", "Chart", "addEventListener").contains(g));
            });
  }

  @Test
  void testHooksAreDataTestAttributesNotStyleClasses() {
    // the classes style.css and palette.css style; a class named in no stylesheet is a leftover
    // test hook
    String css = files.get("style.css") + files.get(PALETTE);
    Set<String> styled =
        Pattern.compile("\\.([a-zA-Z][\\w-]*)")
            .matcher(css.replaceAll("\\d*\\.\\d+(em|s)", ""))
            .results()
            .map(m -> m.group(1))
            .collect(Collectors.toSet());
    Set<String> unstyled = new TreeSet<>();
    scripts()
        .values()
        .forEach(
            text ->
                Pattern.compile("class=\"([\\w\\s-]*)")
                    .matcher(text)
                    .results()
                    .flatMap(m -> Stream.of(m.group(1).trim().split("\\s+")))
                    .filter(c -> !c.isEmpty() && !styled.contains(c))
                    .forEach(unstyled::add));
    // "selected" marks the chosen filter or range for screen readers and styles alike; no
    // stylesheet rule needed
    unstyled.remove("selected");
    assertThat(unstyled).as("classes no stylesheet uses (use data-test for a test hook)").isEmpty();
    assertThat(String.join("", scripts().values())).contains("data-test=\"");
  }
}
