package io.olmstead.controlplane.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Checks a JSON body before schema validation: valid UTF-8, well-formed, no duplicate keys, bounded nesting and no
 * string longer than {@value #MAX_STRING_CHARS} characters (no field of the API needs one). Any failure is a 400.
 */
public final class JsonBodyGuard {
  public static final int MAX_STRING_CHARS = 65_536;
  public static final int MAX_DEPTH = 64;
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
          .maxStringLength(MAX_STRING_CHARS).maxNumberLength(64).build())
      .build();

  private JsonBodyGuard() {
  }

  /** Throws a 400 {@link ApiException} naming what is wrong. */
  public static void check(Buffer body) {
    byte[] bytes = body.getBytes();
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
    } catch (CharacterCodingException e) {
      throw ApiException.badRequest("the request body is not valid UTF-8");
    }
    try (JsonParser parser = FACTORY.createParser(bytes)) {
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        if (token == JsonToken.VALUE_STRING && parser.getTextLength() > MAX_STRING_CHARS) {
          throw ApiException.badRequest("a string in the request body is longer than " + MAX_STRING_CHARS);
        }
      }
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest("the request body is not valid JSON: " + firstLine(e.getOriginalMessage()));
    } catch (IOException e) {
      throw ApiException.badRequest("the request body cannot be read as JSON");
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "malformed";
    }
    String line = message.lines().findFirst().orElse("malformed");
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }
}
