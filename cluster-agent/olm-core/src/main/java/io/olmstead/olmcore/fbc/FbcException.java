package io.olmstead.olmcore.fbc;

/**
 * A catalog could not be read: names the file and, when known, the 1-based line and column (0 when
 * unknown).
 */
public class FbcException extends Exception {

  private final String file;
  private final int line;
  private final int column;

  public FbcException(String file, int line, int column, String message) {
    this(file, line, column, message, null);
  }

  public FbcException(String file, int line, int column, String message, Throwable cause) {
    super(format(file, line, column, message), cause);
    this.file = file;
    this.line = line;
    this.column = column;
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  private static String format(String file, int line, int column, String message) {
    StringBuilder sb = new StringBuilder();
    if (file != null) {
      sb.append(file);
      if (line > 0) {
        sb.append(':').append(line);
        if (column > 0) {
          sb.append(':').append(column);
        }
      }
      sb.append(": ");
    }
    return sb.append(message).toString();
  }
}
