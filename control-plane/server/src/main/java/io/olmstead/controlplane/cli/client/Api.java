package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;

/**
 * The control plane's REST API over {@link HttpClient} (blocking: the CLI has no event loop). Every
 * failure becomes a one-line {@link CliException}: connection problems name the URL and how to
 * change it, 401 says to log in again, a problem+json answer gives its detail and the field
 * pointers.
 */
public final class Api {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Pages followed at most by {@link #list}: 20 pages of 500 = 10,000 objects. */
  static final int MAX_PAGES = 20;

  /**
   * How long the CLI waits for an answer's headers, then again for its body, unless
   * OLMSTEAD_REQUEST_TIMEOUT says.
   */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  static final String TIMEOUT_SETTING = "OLMSTEAD_REQUEST_TIMEOUT";
  // closes the body of an answer still arriving at its deadline (one daemon thread for the whole
  // CLI process)
  private static final ScheduledExecutorService DEADLINES =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "olmstead-cli-deadlines");
            t.setDaemon(true);
            return t;
          });

  /**
   * The most the CLI reads of one answer. Its largest legitimate answers are list pages of at most
   * 500 objects (each below the server's 4 MiB JSON body limit, most a few KiB): 16 MiB leaves room
   * for pages of 32 KiB objects, and a broken or hostile server cannot make it hold more.
   */
  static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

  private final CliConfig config;
  private final Duration timeout;
  private final HttpClient http;

  public Api(CliConfig config) {
    this(config, TIMEOUT);
  }

  /**
   * A client that waits up to {@code timeout} for an answer's headers, and up to as long again for
   * its body.
   */
  public Api(CliConfig config, Duration timeout) {
    this.config = config;
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  public URI url() {
    return config.url();
  }

  /** A path segment, percent-encoded. */
  public static String seg(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A query parameter value, percent-encoded. */
  public static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  public JsonNode get(String path) {
    return send("GET", path, null);
  }

  public JsonNode post(String path, JsonNode body) {
    return send("POST", path, body);
  }

  public JsonNode put(String path, JsonNode body) {
    return send("PUT", path, body);
  }

  public JsonNode delete(String path) {
    return send("DELETE", path, null);
  }

  /**
   * Opens a Server-Sent Events stream ({@code GET /events}) and returns its body, which is closed
   * at {@code until} (a read then ends); a refusal is a {@link CliException} as for any request.
   */
  public InputStream stream(String path, Instant until) {
    URI uri = URI.create(config.url() + "/api/v1" + path);
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Authorization", "Bearer " + config.token())
            .header("Accept", "text/event-stream")
            .GET()
            .build();
    HttpResponse<InputStream> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCodes.ERROR, "interrupted");
    }
    if (response.statusCode() != 200) {
      String text;
      try {
        text = bounded("GET", path, response);
      } catch (IOException e) {
        throw unreachable(e);
      }
      answer(
          "GET",
          path,
          response.statusCode(),
          response.headers().firstValue("Content-Type").orElse(""),
          text);
    }
    long wait = Math.max(1, Duration.between(Instant.now(), until).toMillis());
    DEADLINES.schedule(() -> closeQuietly(response.body()), wait, TimeUnit.MILLISECONDS);
    return response.body();
  }

  /**
   * Every item of a paged list ({@code items} and {@code nextCursor}), at most {@link #MAX_PAGES}
   * pages; {@code path} may carry a query already.
   */
  public List<JsonNode> list(String path) {
    List<JsonNode> items = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < MAX_PAGES; page++) {
      String sep = path.contains("?") ? "&" : "?";
      JsonNode answer =
          get(path + sep + "limit=500" + (cursor == null ? "" : "&cursor=" + q(cursor)));
      answer.path("items").forEach(items::add);
      cursor = answer.path("nextCursor").isTextual() ? answer.path("nextCursor").asText() : null;
      if (cursor == null) {
        return items;
      }
    }
    throw new CliException(
        ExitCodes.ERROR,
        "more than " + MAX_PAGES * 500 + " objects in " + path + ": narrow the list with -l");
  }

  /** A successful answer: its status and JSON body. */
  public record Reply(int status, JsonNode json) {}

  /** Sends one request; the JSON answer (an empty object for 204), else a {@link CliException}. */
  public JsonNode send(String method, String path, JsonNode body) {
    return exchange(method, path, body).json();
  }

  /** Like {@link #send}, with the status (200 and 201 differ for PUT and approvals). */
  public Reply exchange(String method, String path, JsonNode body) {
    return exchange(method, path, body, Map.of());
  }

  /** Like {@link #send}, with request headers (e.g. If-Match). */
  public Reply exchange(String method, String path, JsonNode body, Map<String, String> headers) {
    URI uri = URI.create(config.url() + "/api/v1" + path);
    // the JDK refuses such a header with a message quoting it (the token): say which setting is
    // wrong instead
    if (!config.token().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new CliException(
          ExitCodes.AUTH,
          "the token (OLMSTEAD_TOKEN or the saved login) has a space, line break "
              + "or other character a token never has: set it again, or run olmstead login --url URL --token-stdin");
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Authorization", "Bearer " + config.token())
            .header("Accept", "application/json");
    headers.forEach(request::header);
    if (body != null) {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<InputStream> response;
    String text;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCodes.ERROR, "interrupted");
    }
    // the request's timeout ends with the headers: a server dripping its body would hold the CLI
    // for ever, so the
    // body is closed (its read fails) once it has taken as long again
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> deadline =
        DEADLINES.schedule(
            () -> {
              late.set(true);
              closeQuietly(response.body());
            },
            timeout.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      text = bounded(method, path, response);
    } catch (IOException e) {
      if (late.get()) {
        throw new CliException(
            ExitCodes.ERROR,
            method
                + " "
                + path
                + " sent its answer too slowly (not all within "
                + timeout.toSeconds()
                + " s): try again, or raise "
                + TIMEOUT_SETTING);
      }
      throw unreachable(e);
    } finally {
      deadline.cancel(false);
    }
    return new Reply(
        response.statusCode(),
        answer(
            method,
            path,
            response.statusCode(),
            response.headers().firstValue("Content-Type").orElse(""),
            text));
  }

  /**
   * The body, read to at most {@link #MAX_ANSWER_BYTES} (closing the stream ends the exchange past
   * that).
   */
  private static String bounded(String method, String path, HttpResponse<InputStream> response)
      throws IOException {
    try (InputStream in = response.body()) {
      long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
      byte[] body = declared > MAX_ANSWER_BYTES ? null : in.readNBytes(MAX_ANSWER_BYTES + 1);
      if (body == null || body.length > MAX_ANSWER_BYTES) {
        throw new CliException(
            ExitCodes.ERROR,
            method
                + " "
                + path
                + " answered more than "
                + (MAX_ANSWER_BYTES >> 20)
                + " MiB, the most the CLI reads of an answer: is the URL an Olmstead control plane? (a list can be "
                + "narrowed with -l)");
      }
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // the read it interrupts reports the failure
    }
  }

  /**
   * The request timeout from {@code OLMSTEAD_REQUEST_TIMEOUT} (whole seconds, 1 to 3600), else
   * {@link #TIMEOUT}; a line naming the setting when it is not one.
   */
  static Duration timeoutFrom(Map<String, String> env) {
    String raw = env.get(TIMEOUT_SETTING);
    if (raw == null || raw.isBlank()) {
      return TIMEOUT;
    }
    try {
      long seconds = Long.parseLong(raw.strip());
      if (seconds >= 1 && seconds <= 3600) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // the line below says what is expected
    }
    throw new CliException(
        ExitCodes.USAGE,
        TIMEOUT_SETTING
            + " must be whole seconds from 1 to 3600, got '"
            + (raw.length() > 20 ? raw.substring(0, 20) + "..." : raw)
            + "'");
  }

  private CliException unreachable(IOException e) {
    String fix = ": check the URL (olmstead login --url URL, or OLMSTEAD_URL)";
    boolean unresolved = false;
    boolean refused = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      unresolved |= t instanceof UnresolvedAddressException || t instanceof UnknownHostException;
      refused |= t instanceof ConnectException;
    }
    String what;
    if (e instanceof HttpConnectTimeoutException) {
      what = "timed out connecting to " + config.url();
    } else if (e instanceof HttpTimeoutException) {
      return new CliException(
          ExitCodes.ERROR,
          config.url()
              + " did not answer within "
              + timeout.toSeconds()
              + " s: try again, or check the control plane's health ("
              + TIMEOUT_SETTING
              + " sets the wait)");
    } else if (unresolved) {
      what = "cannot resolve the host of " + config.url();
    } else if (refused) {
      what = "cannot connect to " + config.url() + " (connection refused)";
    } else if (e instanceof SSLException) {
      what = "TLS failed with " + config.url() + " (" + e.getMessage() + ")";
    } else {
      what =
          "cannot talk to "
              + config.url()
              + " ("
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage())
              + ")";
    }
    return new CliException(ExitCodes.ERROR, what + fix);
  }

  /** Decodes an answer: pure, so the error lines are unit-tested. */
  static JsonNode answer(String method, String path, int status, String contentType, String body) {
    boolean problem = contentType.startsWith("application/problem+json");
    if (status >= 200 && status < 300) {
      if (body == null || body.isBlank()) {
        return JSON.createObjectNode();
      }
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new CliException(
            ExitCodes.ERROR,
            method
                + " "
                + path
                + " answered "
                + status
                + " with something "
                + "other than JSON: is the URL an Olmstead control plane?");
      }
    }
    JsonNode json = null;
    if (problem || contentType.startsWith("application/json")) {
      try {
        json = JSON.readTree(body);
      } catch (IOException e) {
        json = null;
      }
    }
    if (status == 401) {
      return fail(
          ExitCodes.AUTH,
          "the token was refused (expired, revoked or mistyped): run olmstead login "
              + "--url URL --token-stdin with a valid token (or set OLMSTEAD_TOKEN)");
    }
    if (json == null || !json.isObject()) {
      return fail(
          status >= 500 ? ExitCodes.ERROR : exitFor(status),
          method
              + " "
              + path
              + " answered HTTP "
              + status
              + (contentType.isEmpty() ? "" : " (" + contentType.split(";")[0] + ")")
              + (status == 404 ? ": is the URL an Olmstead control plane (without /api/v1)?" : ""));
    }
    return fail(exitFor(status), problemLine(status, json));
  }

  /** {@code detail (field: message; field: message)}. */
  static String problemLine(int status, JsonNode problem) {
    String detail = problem.path("detail").asText(problem.path("title").asText("HTTP " + status));
    List<String> fields = new ArrayList<>();
    JsonNode errors = problem.path("errors");
    if (errors instanceof ArrayNode array) {
      for (JsonNode error : array) {
        String field = error.path("field").asText("");
        String message = error.path("message").asText("");
        // the detail often is the one field's message: then the pointer alone
        fields.add(
            field.isEmpty() ? message : detail.contains(message) ? field : field + ": " + message);
        if (fields.size() == 5) {
          break;
        }
      }
    }
    String line =
        detail
            + (fields.isEmpty()
                ? ""
                : " (" + String.join("; ", fields) + (errors.size() > 5 ? "; ..." : "") + ")");
    return status == 403
        ? "forbidden: " + line + " (a token with a higher role or another team is needed)"
        : line;
  }

  static int exitFor(int status) {
    return switch (status) {
      case 401, 403 -> ExitCodes.AUTH;
      case 404 -> ExitCodes.NOT_FOUND;
      case 409, 412 -> ExitCodes.CONFLICT_OR_FAILED;
      default -> ExitCodes.ERROR;
    };
  }

  private static JsonNode fail(int exitCode, String message) {
    throw new CliException(exitCode, message.replace('\n', ' '));
  }
}
