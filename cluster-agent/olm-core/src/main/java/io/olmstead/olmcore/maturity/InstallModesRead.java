package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads {@code installModes} from CSV metadata. */
final class InstallModesRead {

  private InstallModesRead() {}

  static boolean supports(JsonNode csvMetadata, String type) {
    for (JsonNode m : Json.array(csvMetadata, "installModes")) {
      if (type.equals(Json.text(m, "type")) && m.path("supported").asBoolean(false)) {
        return true;
      }
    }
    return false;
  }
}
