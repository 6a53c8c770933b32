package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;

/** One bundle property; unknown types are kept verbatim. */
public record Property(String type, JsonNode value) {}
