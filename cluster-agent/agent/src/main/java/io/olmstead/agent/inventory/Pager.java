package io.olmstead.agent.inventory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Lists page by page ({@code limit}/{@code continue}), so only one page of objects is held at a
 * time, and stops after {@code max} objects. When the API server tells how many items remain
 * ({@code remainingItemCount}, served for unfiltered lists) and only a count is wanted, the first
 * page is enough.
 */
final class Pager {
  /** How far a listing went: objects seen, and whether more exist than were seen. */
  record Result(long seen, long total, boolean capped) {}

  private Pager() {}

  static <T extends HasMetadata> Result each(
      Function<ListOptions, ? extends KubernetesResourceList<T>> list,
      int pageSize,
      long max,
      boolean countOnly,
      Consumer<T> each) {
    String token = null;
    long seen = 0;
    do {
      KubernetesResourceList<T> page =
          list.apply(
              new ListOptionsBuilder().withLimit((long) pageSize).withContinue(token).build());
      for (T item : page.getItems()) {
        if (seen >= max) {
          return new Result(seen, seen, true);
        }
        seen++;
        each.accept(item);
      }
      token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
      Long remaining =
          page.getMetadata() == null ? null : page.getMetadata().getRemainingItemCount();
      if (countOnly && token != null && !token.isEmpty() && remaining != null && remaining >= 0) {
        return new Result(seen, seen + remaining, false);
      }
    } while (token != null && !token.isEmpty());
    return new Result(seen, seen, false);
  }
}
