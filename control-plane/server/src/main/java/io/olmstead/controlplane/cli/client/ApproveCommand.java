package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code approve SUBSCRIPTION BUNDLE (-l selector | --cluster NAME)}: approves the bundle on every
 * cluster waiting for it that the selector picks ({@code POST /approvals}, one request, one audit
 * entry). A bundle not in the subscription's channel is refused by the server (422) and printed as
 * one line.
 */
@Command(
    name = "approve",
    mixinStandardHelpOptions = true,
    description = "Approve a bundle of a Manual subscription on the clusters waiting for it.")
final class ApproveCommand implements Callable<Integer> {
  private final CliContext ctx;

  @Parameters(index = "0", paramLabel = "SUBSCRIPTION")
  String subscription;

  @Parameters(
      index = "1",
      paramLabel = "BUNDLE",
      description = "the bundle (CSV) name, e.g. etcdoperator.v0.9.4")
  String bundle;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  static final class Target {
    @Option(
        names = {"-l", "--selector"},
        paramLabel = "SELECTOR",
        description = "the waiting clusters it picks " + "(\"\" for all of them)")
    String selector;

    @Option(names = "--cluster", paramLabel = "NAME", description = "one cluster")
    String cluster;
  }

  ApproveCommand(CliContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Integer call() {
    ObjectNode body =
        Api.JSON.createObjectNode().put("subscription", subscription).put("bundle", bundle);
    if (target.cluster != null) {
      // one cluster: its own endpoint, so nothing else is approved
      Api.Reply reply =
          ctx.api().exchange("POST", Kind.clusters.pathOf(target.cluster) + "/approvals", body);
      ctx.out()
          .println(
              (reply.status() == 201 ? "approved " + bundle + " on " : "already approved on ")
                  + target.cluster);
      ctx.out().flush();
      return ExitCodes.OK;
    }
    if (!target.selector.isBlank()) {
      Kind.selector(target.selector);
    }
    JsonNode result = ctx.api().post("/approvals", body.put("selector", target.selector));
    result
        .path("approved")
        .forEach(c -> ctx.out().println("approved " + bundle + " on " + c.asText()));
    result
        .path("alreadyApproved")
        .forEach(c -> ctx.out().println("already approved on " + c.asText()));
    if (result.path("approved").isEmpty() && result.path("alreadyApproved").isEmpty()) {
      ctx.out()
          .println(
              "no cluster "
                  + (target.selector.isBlank() ? "" : "matching " + target.selector + " ")
                  + "waits for "
                  + bundle
                  + " of "
                  + subscription);
    }
    ctx.out().flush();
    return ExitCodes.OK;
  }
}
