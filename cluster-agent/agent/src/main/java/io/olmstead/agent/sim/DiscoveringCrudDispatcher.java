package io.olmstead.agent.sim;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SIMULATION: the fabric8 CRUD mock plus what {@code kubectl} asks before it creates, lists or
 * deletes anything: the version, the discovery documents ({@link ApiDiscovery}, derived from the
 * CRDs the mock holds at the time of the request, so the CRDs an agent installs become usable at
 * once) and an OpenAPI v2 document. Everything else is the CRUD mock. Watches are WebSocket only
 * (the fabric8 mock), so {@code kubectl get -w} does not work.
 */
public class DiscoveringCrudDispatcher extends KubernetesCrudDispatcher {
  /** What {@code /version} says; the same as the simulated agents' facts. */
  public static final String GIT_VERSION = "v1.31.0-simulated";

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

  /**
   * How the CRUD mock's list response begins its own metadata (its items are compact JSON, without
   * the space).
   */
  private static final String LIST_METADATA = "\"metadata\": {\"resourceVersion\"";

  private final KubernetesSerialization json = new KubernetesSerialization();
  private String lastItems;
  private List<CustomResourceDefinition> lastCrds = List.of();

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    if ("GET".equals(request.getMethod()) && request.getPath() != null) {
      String path = request.getPath();
      int query = path.indexOf('?');
      Optional<MockResponse> answer = discovery(query < 0 ? path : path.substring(0, query));
      if (answer.isPresent()) {
        return answer.get();
      }
    }
    return super.dispatch(request);
  }

  /**
   * A watch whose close never blocks the mock server's event loop ({@link WatchClosedOffTheLoop}).
   */
  @Override
  public MockResponse handleWatch(String path) {
    MockResponse response = super.handleWatch(path);
    WebSocketListener watch = response.getWebSocketListener();
    return watch == null
        ? response
        : response.withWebSocketUpgrade(new WatchClosedOffTheLoop(watch));
  }

  private Optional<MockResponse> discovery(String path) {
    if (path.equals("/openapi/v2")) {
      // An empty protobuf message is a valid empty OpenAPI v2 document: kubectl's client-side
      // validation then finds no
      // schema for any kind and skips it, so `kubectl create -f` works without --validate=false.
      // The content type is
      // the one an API server sends (kubectl refuses the "@" form it asks for).
      return Optional.of(
          new MockResponse()
              .setResponseCode(200)
              .addHeader(
                  "Content-Type", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
              .setBody(new byte[0]));
    }
    String[] parts = path.split("/");
    Object document = null;
    boolean served = true;
    if (path.equals("/version")) {
      document =
          Map.of("major", "1", "minor", "31", "gitVersion", GIT_VERSION, "platform", "linux/amd64");
    } else if (path.equals("/api")) {
      document = ApiDiscovery.coreVersions();
    } else if (path.equals("/api/v1")) {
      document = ApiDiscovery.resources("v1", List.of()).orElseThrow();
    } else if (path.equals("/apis")) {
      document = ApiDiscovery.groups(crds());
    } else if (parts.length == 3 && "apis".equals(parts[1])) {
      document = ApiDiscovery.group(parts[2], crds()).orElse(null);
      served = document != null;
    } else if (parts.length == 4 && "apis".equals(parts[1])) {
      document = ApiDiscovery.resources(parts[2] + "/" + parts[3], crds()).orElse(null);
      served = document != null;
    } else if (!path.startsWith("/openapi/")) {
      return Optional.empty();
    } else {
      served = false; // OpenAPI v3: not served, so kubectl falls back to v2
    }
    return Optional.of(served ? ok(json.asJson(document)) : notFound(path));
  }

  /**
   * The CRDs the mock holds now (read through the CRUD store, under its lock). Parsed again only
   * when they changed: agents ask for {@code /apis} every inventory round and bundle CRDs can be
   * large.
   */
  private synchronized List<CustomResourceDefinition> crds() {
    MockResponse list = handleGet(CRDS);
    if (list.code() != 200 || list.getBody() == null) {
      return List.of();
    }
    String body = list.getBody().readUtf8();
    // the list's own resourceVersion (the mock's counter, after the items) moves with every write
    // to any object
    int listMeta = body.lastIndexOf(LIST_METADATA);
    String items = listMeta < 0 ? body : body.substring(0, listMeta);
    if (!items.equals(lastItems)) {
      CustomResourceDefinitionList crds = json.unmarshal(body, CustomResourceDefinitionList.class);
      lastCrds = crds.getItems() == null ? List.of() : List.copyOf(crds.getItems());
      lastItems = items;
    }
    return lastCrds;
  }

  private static MockResponse ok(String body) {
    return new MockResponse()
        .setResponseCode(200)
        .addHeader("Content-Type", "application/json")
        .setBody(body);
  }

  private MockResponse notFound(String path) {
    return new MockResponse()
        .setResponseCode(404)
        .addHeader("Content-Type", "application/json")
        .setBody(
            json.asJson(
                Map.of(
                    "kind",
                    "Status",
                    "apiVersion",
                    "v1",
                    "status",
                    "Failure",
                    "reason",
                    "NotFound",
                    "code",
                    404,
                    "message",
                    "the server could not find the requested resource " + path)));
  }
}
