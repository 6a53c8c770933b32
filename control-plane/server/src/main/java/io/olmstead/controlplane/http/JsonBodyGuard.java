package io.olmstead.controlplane.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Checks a JSON body before schema validation, in one linear pass: valid UTF-8, well-formed, no
 * duplicate keys, bounded nesting, no string longer than {@value #MAX_STRING_CHARS} characters and
 * no array or object with more than {@value #MAX_ENTRIES} entries (no field of the API needs one;
 * the schema's {@code maxItems} are lower still, but a free-form object such as {@code
 * config.affinity} has none), all a 400; and no NUL character in any key or string (PostgreSQL
 * cannot store it in text), a 422 naming the field.
 */
public final class JsonBodyGuard {
  public static final int MAX_STRING_CHARS = 65_536;
  public static final int MAX_DEPTH = 64;
  public static final int MAX_ENTRIES = 1_000;
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH)
                  .maxStringLength(MAX_STRING_CHARS)
                  .maxNumberLength(64)
                  .build())
          .build();

  private JsonBodyGuard() {}

  /** Throws a 400 {@link ApiException} naming what is wrong. */
  public static void check(Buffer body) {
    byte[] bytes = body.getBytes();
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
    } catch (CharacterCodingException e) {
      throw ApiException.badRequest("the request body is not valid UTF-8");
    }
    try (JsonParser parser = FACTORY.createParser(bytes)) {
      int[] entries = new int[MAX_DEPTH + 2];
      int depth = 0;
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        if (token.isStructEnd()) {
          depth--;
          continue;
        }
        if (depth > 0 && token != JsonToken.FIELD_NAME && ++entries[depth] > MAX_ENTRIES) {
          throw ApiException.badRequest(
              "an array or object in the request body has more than " + MAX_ENTRIES + " entries",
              (token.isStructStart()
                      ? parser.getParsingContext().getParent()
                      : parser.getParsingContext())
                  .pathAsPointer()
                  .toString());
        }
        if (token.isStructStart()) {
          entries[++depth] = 0;
        } else if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) {
          checkText(parser);
        }
      }
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest(
          "the request body is not valid JSON: " + firstLine(e.getOriginalMessage()));
    } catch (IOException e) {
      throw ApiException.badRequest("the request body cannot be read as JSON");
    }
  }

  private static void checkText(JsonParser parser) throws IOException {
    if (parser.currentToken() == JsonToken.VALUE_STRING
        && parser.getTextLength() > MAX_STRING_CHARS) {
      throw ApiException.badRequest(
          "a string in the request body is longer than " + MAX_STRING_CHARS);
    }
    char[] text = parser.getTextCharacters();
    int end = parser.getTextOffset() + parser.getTextLength();
    for (int i = parser.getTextOffset(); i < end; i++) {
      if (text[i] == '\u0000') {
        throw NulCharacters.refused(parser.getParsingContext().pathAsPointer().toString());
      }
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
