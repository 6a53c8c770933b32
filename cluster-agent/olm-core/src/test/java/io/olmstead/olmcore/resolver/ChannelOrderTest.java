package io.olmstead.olmcore.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.ChannelEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Re-creation of OLM's TestSortChannel: same inputs, same order or the same error. */
class ChannelOrderTest {

  private static ChannelEntry e(String name, String replaces, String... skips) {
    return new ChannelEntry(name, replaces, List.of(skips), null);
  }

  private static ChannelOrder.Result sort(ChannelEntry... entries) {
    return ChannelOrder.sort("package", "channel", List.of(entries));
  }

  @Test
  void wrinkleFreeChannelIsOrderedHeadFirst() {
    assertThat(sort(e("b", null), e("a", "b")).order()).containsExactly("a", "b");
  }

  @Test
  void emptyChannelHasAnEmptyOrder() {
    ChannelOrder.Result r = ChannelOrder.sort("package", "channel", List.of());
    assertThat(r.order()).isEmpty();
    assertThat(r.failure()).isEmpty();
  }

  @Test
  void twoEntryCycleHasNoHead() {
    assertThat(sort(e("a", "b"), e("b", "a")).error())
        .isEqualTo(
            "no channel heads (entries not replaced by another entry) found in channel \"channel\" of package \"package\"");
  }

  @Test
  void cycleBelowTheHeadIsReported() {
    assertThat(sort(e("a", "b"), e("b", "c"), e("c", "b")).error())
        .isEqualTo(
            "a cycle exists in the chain of replacement beginning with \"a\" in channel \"channel\" of package \"package\"");
  }

  @Test
  void skippedAndReplacedEntryIsOmitted() {
    assertThat(sort(e("a", "b", "b"), e("b", null)).order()).containsExactly("a");
  }

  @Test
  void skippedEntryIsOmitted() {
    assertThat(sort(e("a", "b", "c"), e("b", "c"), e("c", null)).order()).containsExactly("a", "b");
  }

  @Test
  void twoReplacesChainsAreAnError() {
    assertThat(sort(e("a", null), e("b", "c"), e("c", null)).error())
        .isEqualTo(
            "a unique replacement chain within a channel is required to determine the relative order between"
                + " channel entries, but 2 replacement chains were found in channel \"channel\" of package \"package\": a, b...c");
  }
}
