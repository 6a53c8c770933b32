package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.semver.Version;

/**
 * One Subscription of the namespace: package {@code packageName} from catalog {@code catalog},
 * channel {@code channel} (null/empty = the package's default channel), an optional {@code
 * startingBundle} (OLM's startingCSV, used only when nothing is installed) and an optional {@code
 * maxVersion} ceiling.
 */
public record SubscriptionRequest(
    String name,
    String catalog,
    String packageName,
    String channel,
    String startingBundle,
    Version maxVersion) {}
