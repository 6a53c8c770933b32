package io.olmstead.controlplane.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.ValidationIssue;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Strict ingest runs olm-core's webhook planning checks on every bundle's CSV; lenient keeps them
 * as warnings.
 */
class CatalogIngestWebhookTest {
  private final CatalogIngest ingest = new CatalogIngest(16L * 1024 * 1024);

  private IngestResult ingest(String content, ValidationMode mode) {
    return ingest.ingest(content.getBytes(StandardCharsets.UTF_8), CatalogFormat.NDJSON, mode);
  }

  @Test
  void strictRefusesABundleWhoseWebhookNamesAnAbsentDeploymentNamingTheBundleAndTheField() {
    IngestResult result =
        ingest(CatalogFixtures.webhookNdjson("etcd-backup-operator"), ValidationMode.STRICT);

    assertThat(result).isInstanceOf(IngestResult.Invalid.class);
    ValidationIssue issue = ((IngestResult.Invalid) result).errors().get(0);
    assertThat(((IngestResult.Invalid) result).errors()).hasSize(1);
    assertThat(issue.packageName()).isEqualTo("etcdoperator");
    assertThat(issue.bundle()).isEqualTo("etcdoperator.v0.9.4");
    assertThat(issue.field())
        .isEqualTo("bundles[etcdoperator.v0.9.4].csv.spec.webhookdefinitions[2].deploymentName");
    assertThat(issue.message())
        .isEqualTo(
            "spec.webhookdefinitions[2].deploymentName \"etcd-backup-operator\" names "
                + "no deployment of spec.install.spec.deployments");
  }

  @Test
  void strictAcceptsTheSameBundleWhenEveryWebhookNamesADeploymentOfTheCsv() {
    IngestResult result =
        ingest(CatalogFixtures.webhookNdjson("etcd-operator"), ValidationMode.STRICT);

    assertThat(result).isInstanceOf(IngestResult.Accepted.class);
    assertThat(((IngestResult.Accepted) result).warnings()).isEmpty();
  }

  @Test
  void lenientKeepsTheCatalogAndReportsTheWebhookProblemAsAWarning() {
    IngestResult result =
        ingest(CatalogFixtures.webhookNdjson("etcd-backup-operator"), ValidationMode.LENIENT);

    assertThat(result).isInstanceOf(IngestResult.Accepted.class);
    assertThat(((IngestResult.Accepted) result).warnings())
        .extracting(ValidationIssue::field)
        .containsExactly(
            "bundles[etcdoperator.v0.9.4].csv.spec.webhookdefinitions[2].deploymentName");
  }
}
