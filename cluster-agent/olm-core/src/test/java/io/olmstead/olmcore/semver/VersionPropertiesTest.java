package io.olmstead.olmcore.semver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property tests: precedence is a total order; ranges agree with a brute-force evaluation of their
 * comparators.
 */
class VersionPropertiesTest {

  private static final List<String> OPERATORS =
      List.of("", "=", "==", "!", "!=", ">", ">=", "<", "<=");

  @Provide
  Arbitrary<Version> versions() {
    // small pools so that equal and nearly equal versions are frequent
    Arbitrary<Integer> number = Arbitraries.integers().between(0, 3);
    Arbitrary<String> identifier =
        Arbitraries.of("0", "1", "2", "10", "alpha", "beta", "rc", "Z", "a-b", "0a");
    Arbitrary<List<String>> pre = identifier.list().ofMaxSize(3);
    Arbitrary<List<String>> build = Arbitraries.of("b1", "sha", "007", "x-y").list().ofMaxSize(2);
    return Combinators.combine(number, number, number, pre, build)
        .as(
            (ma, mi, pa, p, b) -> {
              StringBuilder sb =
                  new StringBuilder().append(ma).append('.').append(mi).append('.').append(pa);
              if (!p.isEmpty()) {
                sb.append('-').append(String.join(".", p));
              }
              if (!b.isEmpty()) {
                sb.append('+').append(String.join(".", b));
              }
              return Version.tryParse(sb.toString()).orElseThrow();
            });
  }

  @Property
  void precedenceIsAntisymmetric(@ForAll("versions") Version a, @ForAll("versions") Version b) {
    assertThat(Integer.signum(a.compareTo(b))).isEqualTo(-Integer.signum(b.compareTo(a)));
  }

  @Property
  void precedenceIsTransitive(
      @ForAll("versions") Version a, @ForAll("versions") Version b, @ForAll("versions") Version c) {
    if (a.compareTo(b) <= 0 && b.compareTo(c) <= 0) {
      assertThat(a.compareTo(c)).isLessThanOrEqualTo(0);
    }
    if (a.compareTo(b) < 0 && b.compareTo(c) < 0) {
      assertThat(a.compareTo(c)).isLessThan(0);
    }
  }

  @Property
  void precedenceIsConsistentWithEquals(
      @ForAll("versions") Version a, @ForAll("versions") Version b) {
    assertThat(a.equals(b)).isEqualTo(a.compareTo(b) == 0);
    if (a.equals(b)) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
    assertThat(a.compareTo(a)).isZero();
  }

  @Property
  void textRoundTrips(@ForAll("versions") Version a) throws VersionException {
    Version again = Version.parse(a.toString());
    assertThat(again).isEqualTo(a);
    assertThat(again.toString()).isEqualTo(a.toString());
    assertThat(again.build()).isEqualTo(a.build());
  }

  /** A comparator set: OR of AND groups of (operator, version). */
  record Comparators(List<List<String[]>> groups) {
    String render(boolean spaceAfterOperator) {
      List<String> ors = new ArrayList<>();
      for (List<String[]> group : groups) {
        List<String> ands = new ArrayList<>();
        for (String[] c : group) {
          ands.add(c[0] + (spaceAfterOperator && "<>=".contains(last(c[0])) ? " " : "") + c[1]);
        }
        ors.add(String.join(" ", ands));
      }
      return String.join(" || ", ors);
    }

    private static String last(String op) {
      return op.isEmpty() ? "#" : op.substring(op.length() - 1);
    }

    boolean bruteForce(Version v) {
      for (List<String[]> group : groups) {
        boolean all = true;
        for (String[] c : group) {
          int cmp = v.compareTo(Version.tryParse(c[1]).orElseThrow());
          all &= holds(c[0], cmp);
        }
        if (all) {
          return true;
        }
      }
      return false;
    }

    private static boolean holds(String op, int cmp) {
      switch (op) {
        case "!":
        case "!=":
          return cmp != 0;
        case ">":
          return cmp > 0;
        case ">=":
          return cmp >= 0;
        case "<":
          return cmp < 0;
        case "<=":
          return cmp <= 0;
        default:
          return cmp == 0;
      }
    }
  }

  @Provide
  Arbitrary<Comparators> comparatorSets() {
    Arbitrary<String[]> comparator =
        Combinators.combine(Arbitraries.of(OPERATORS), versions())
            .as((op, v) -> new String[] {op, v.toString()});
    return comparator
        .list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .map(Comparators::new);
  }

  @Property
  void rangeAgreesWithBruteForceEvaluationOfItsComparators(
      @ForAll("comparatorSets") Comparators set,
      @ForAll boolean spaceAfterOperator,
      @ForAll("versions") Version v)
      throws VersionException {
    VersionRange range = VersionRange.parse(set.render(spaceAfterOperator));
    assertThat(range.contains(v)).isEqualTo(set.bruteForce(v));
  }

  @Property
  void wildcardRangeAgreesWithItsBounds(
      @ForAll("wildcardOperators") String op,
      @ForAll("smallNumbers") int major,
      @ForAll("smallNumbers") int minor,
      @ForAll boolean patchWildcard,
      @ForAll("versions") Version v)
      throws VersionException {
    Version lo = patchWildcard ? Version.of(major, minor, 0) : Version.of(major, 0, 0);
    Version hi = patchWildcard ? Version.of(major, minor + 1, 0) : Version.of(major + 1, 0, 0);
    String text = op + (patchWildcard ? major + "." + minor + ".x" : major + ".x");
    boolean inLo = v.compareTo(lo) >= 0;
    boolean belowHi = v.compareTo(hi) < 0;
    boolean expected;
    switch (op) {
      case ">":
        expected = !belowHi;
        break;
      case ">=":
        expected = inLo;
        break;
      case "<":
        expected = !inLo;
        break;
      case "<=":
        expected = belowHi;
        break;
      case "!":
      case "!=":
        expected = false;
        break; // blang ANDs "<lo >=hi": matches nothing
      default:
        expected = inLo && belowHi;
        break;
    }
    assertThat(VersionRange.parse(text).contains(v))
        .as("%s contains %s", text, v)
        .isEqualTo(expected);
  }

  @Provide
  Arbitrary<String> rangeLikeText() {
    return Arbitraries.strings().withChars("0123456789.-+xX*<>=! |^~vaZ\t").ofMaxLength(30);
  }

  @Property(tries = 3000)
  void parsingArbitraryTextOnlyEverThrowsVersionException(@ForAll("rangeLikeText") String text) {
    try {
      VersionRange range = VersionRange.parse(text);
      assertThat(range.toString()).isEqualTo(text);
      range.contains(Version.of(1, 2, 3));
    } catch (VersionException expected) {
      assertThat(expected.getMessage()).startsWith("Could not parse Range");
    }
    try {
      assertThat(Version.parse(text).toString()).isEqualTo(text);
    } catch (VersionException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  @Provide
  Arbitrary<String> wildcardOperators() {
    return Arbitraries.of(OPERATORS);
  }

  @Provide
  Arbitrary<Integer> smallNumbers() {
    return Arbitraries.integers().between(0, 3);
  }
}
