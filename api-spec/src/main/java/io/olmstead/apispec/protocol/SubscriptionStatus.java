package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The observed state of one subscription in one cluster; {@code phase} follows OLM's CSV phases. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubscriptionStatus(String name, String installedBundle, String installedVersion, String targetVersion,
    String phase, String reason, String message, List<Condition> conditions, Long observedGeneration) {
}
