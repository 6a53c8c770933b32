package io.olmstead.controlplane.cli.client;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code delete KIND NAME...}: deletes clusters, subscriptions or catalogs as the API allows
 * ({@code DELETE}); rollouts are not deleted (abort or roll them back). Stops at the first refusal,
 * as kubectl does, having printed what it deleted before.
 */
@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    description = {
      "Delete clusters, subscriptions or catalogs.",
      "A cluster is forgotten and its agent credential revoked; a subscription is uninstalled by the agents (409 "
          + "while a rollout of it is progressing or paused); a catalog is refused (409) while a subscription uses "
          + "it. Rollouts are not deleted: abort or roll them back."
    })
final class DeleteCommand implements Callable<Integer> {
  static final List<Kind> DELETABLE = List.of(Kind.clusters, Kind.subscriptions, Kind.catalogs);
  private final CliContext ctx;

  @Parameters(index = "0", paramLabel = "KIND", description = "cluster, subscription or catalog")
  String kind;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "NAME")
  List<String> names;

  @Option(
      names = "--ignore-not-found",
      description = "an object that does not exist is not an error")
  boolean ignoreNotFound;

  DeleteCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    Kind k = Kind.parse(kind);
    if (!DELETABLE.contains(k)) {
      throw new CliException(
          ExitCodes.USAGE,
          "rollouts cannot be deleted: stop one with olmstead rollout abort ID "
              + "or rollout rollback ID");
    }
    Api api = ctx.api();
    for (String name : names) {
      try {
        api.delete(k.pathOf(name));
        ctx.out().println(k.singular() + "/" + name + " deleted");
      } catch (CliException e) {
        if (!(ignoreNotFound && e.exitCode() == ExitCodes.NOT_FOUND)) {
          throw new CliException(e.exitCode(), k.singular() + "/" + name + ": " + e.getMessage());
        }
      }
      ctx.out().flush();
    }
    return ExitCodes.OK;
  }
}
