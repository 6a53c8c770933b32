package io.olmstead.controlplane.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.json.schema.JsonSchemaValidationException;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import io.vertx.openapi.contract.MediaType;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.SchemaValidationException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Checks and validates JSON request bodies on a small pool of its own, in parallel: never on an
 * event loop, and never queued behind another request (vertx-openapi validates on one ordered queue
 * per event loop, so one big body held every request behind it). Sane JSON first ({@link
 * JsonBodyGuard}: encoding, size, NUL), then the operation's schema.
 */
public final class BodyValidation {
  /**
   * One thread: validation waits its turn rather than take CPU from the event loops (bodies are
   * bounded).
   */
  static final int THREADS = 1;

  private final Map<String, Validator> validators;
  private final WorkerExecutor workers;

  private BodyValidation(Map<String, Validator> validators, WorkerExecutor workers) {
    this.validators = validators;
    this.workers = workers;
  }

  /** One validator per operation with a JSON body, from the contract with request bodies. */
  public static BodyValidation create(Vertx vertx, OpenAPIContract withBodies) {
    Map<String, Validator> validators = new HashMap<>();
    for (Operation operation : withBodies.operations()) {
      if (operation.getRequestBody() == null) {
        continue;
      }
      MediaType json = operation.getRequestBody().getContent().get(MediaType.APPLICATION_JSON);
      if (json != null) {
        validators.put(
            operation.getOperationId(),
            withBodies.getSchemaRepository().validator(json.getSchema()));
      }
    }
    return new BodyValidation(
        validators,
        vertx.createSharedWorkerExecutor(
            "olmstead-body-validation", THREADS, 30, TimeUnit.SECONDS));
  }

  /**
   * The parsed body, or a failed future: 400 (not sane JSON), 422 (NUL, schema) as {@link
   * ApiFailureHandler} maps.
   */
  public Future<Object> validate(String operationId, Buffer body) {
    return workers.executeBlocking(() -> check(operationId, body), false);
  }

  Object check(String operationId, Buffer body) {
    JsonBodyGuard.check(body);
    Object json = Json.decodeValue(body);
    Validator validator = validators.get(operationId);
    if (validator != null) {
      OutputUnit result = validator.validate(json);
      try {
        result.checkValidity();
      } catch (JsonSchemaValidationException e) {
        throw SchemaValidationException.createInvalidValueRequestBody(result, e);
      }
    }
    return json;
  }
}
