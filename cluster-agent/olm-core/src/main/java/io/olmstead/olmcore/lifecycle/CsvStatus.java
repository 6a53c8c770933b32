package io.olmstead.olmcore.lifecycle;

/** A CSV phase with the reason and message OLM would report for it. */
public record CsvStatus(CsvPhase phase, CsvReason reason, String message) {}
