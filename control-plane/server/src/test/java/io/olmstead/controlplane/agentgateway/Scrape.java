package io.olmstead.controlplane.agentgateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

/**
 * One read of a control plane's {@code /metrics}: samples by series ({@code name{labels}}), missing
 * ones as 0.
 */
record Scrape(Map<String, Double> samples) {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  static Scrape of(String baseUrl) throws Exception {
    String text =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Map<String, Double> samples = new HashMap<>();
    text.lines()
        .filter(line -> !line.startsWith("#") && !line.isBlank())
        .forEach(
            line -> {
              int space = line.lastIndexOf(' ');
              samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            });
    return new Scrape(samples);
  }

  double value(String series) {
    return samples.getOrDefault(series, 0.0);
  }

  /** How much each series grew since {@code before}. */
  Map<String, Double> since(Scrape before, String... series) {
    Map<String, Double> change = new HashMap<>();
    for (String s : series) {
      change.put(s, value(s) - before.value(s));
    }
    return change;
  }
}
