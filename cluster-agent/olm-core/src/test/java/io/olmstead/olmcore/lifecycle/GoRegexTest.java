package io.olmstead.olmcore.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoRegexTest {

  @ParameterizedTest
  @CsvSource(
      delimiterString = " -> ",
      value = {
        "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ -> abc-1 -> true",
        "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ -> -abc -> false",
        // RE2 reads '[' inside a class literally; Java would open a nested class
        "^[\\w\\-.~:\\/?#[\\]@!$&'()*+,;=]+$ -> a[b]@c -> true",
        "^[\\w\\-.~:\\/?#[\\]@!$&'()*+,;=]+$ -> a b -> false",
        // RE2 POSIX classes; Java would read the letters of the name
        "^[[:alpha:]]+$ -> abc -> true",
        "^[[:alpha:]]+$ -> a1 -> false",
        "^[[:^digit:]]+$ -> ab -> true",
        "^[[:^digit:]]+$ -> a1 -> false",
        // '&&' is intersection in Java, literal in RE2
        "^[a&&b]+$ -> a&b -> true",
        "^[]a]+$ -> ]a -> true",
        "^[^]a]+$ -> bc -> true",
      })
  void translatesRe2CharacterClassesForJava(String re2, String input, boolean matches) {
    String java = GoRegex.toJava(re2).orElseThrow();
    assertThat(Pattern.compile(java).matcher(input).find()).isEqualTo(matches);
  }

  @ParameterizedTest
  @CsvSource(
      delimiterString = " -> ",
      value = {"(unclosed -> x", "a{2,1} -> x"})
  void givesUpOnPatternsJavaCannotCompile(String re2, String unused) {
    assertThat(GoRegex.toJava(re2)).isEmpty();
  }
}
