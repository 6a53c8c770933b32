package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.registry.CatalogPollRows.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The catalog poll gauges' rows: one per catalog up to the cap, the rest folded into "other". */
class CatalogPollRowsTest {

  @Test
  void catalogsWithinTheCapKeepTheirOwnRows() {
    List<Row> rows = List.of(new Row("a", false, 100), new Row("b", true, 0));
    assertThat(CatalogPollRows.fold(rows, 2)).isEqualTo(rows);
  }

  @Test
  void catalogsPastTheCapFoldIntoOneOtherRowFailingWhenAnyIsWithTheOldestSuccess() {
    List<Row> rows =
        List.of(
            new Row("a", false, 100),
            new Row("b", false, 300),
            new Row("c", true, 200),
            new Row("d", false, 250));
    assertThat(CatalogPollRows.fold(rows, 2))
        .containsExactly(new Row("a", false, 100), new Row("other", true, 200));
    assertThat(CatalogPollRows.fold(rows.subList(0, 3), 2).get(1))
        .isEqualTo(new Row("other", true, 200));
    assertThat(CatalogPollRows.fold(List.of(rows.get(0), rows.get(1), rows.get(3)), 2).get(1))
        .isEqualTo(new Row("other", false, 250));
  }
}
