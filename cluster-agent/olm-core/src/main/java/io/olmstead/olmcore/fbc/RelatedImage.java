package io.olmstead.olmcore.fbc;

/** One {@code relatedImages} entry of a bundle. */
public record RelatedImage(String name, String image) {}
