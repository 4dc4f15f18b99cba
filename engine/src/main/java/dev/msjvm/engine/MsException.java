package dev.msjvm.engine;

/**
 * The one unchecked exception the engine throws for user-visible errors.
 *
 * <p>Its {@link Kind} names the Python builtin MindSpore raises for the same input, so the shim can
 * re-raise it unchanged: {@code new MsException(Kind.VALUE_ERROR, "...")} surfaces in a script as
 * {@code ValueError: ...}. Messages copy MindSpore's text where users or tests see it.
 */
public class MsException extends RuntimeException {

  /** The Python exception class a script receives. */
  public enum Kind {
    TYPE_ERROR("TypeError"),
    VALUE_ERROR("ValueError"),
    KEY_ERROR("KeyError"),
    RUNTIME_ERROR("RuntimeError"),
    NOT_IMPLEMENTED_ERROR("NotImplementedError"),
    INDEX_ERROR("IndexError"),
    TIMEOUT_ERROR("TimeoutError");

    private final String pythonName;

    Kind(String pythonName) {
      this.pythonName = pythonName;
    }

    /** The name of the Python builtin exception class, e.g. {@code "ValueError"}. */
    public String pythonName() {
      return pythonName;
    }
  }

  private final Kind kind;

  public MsException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public MsException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  /** Name of the Python exception class (called from the shim). */
  public String pythonType() {
    return kind.pythonName();
  }

  public static MsException typeError(String message) {
    return new MsException(Kind.TYPE_ERROR, message);
  }

  public static MsException valueError(String message) {
    return new MsException(Kind.VALUE_ERROR, message);
  }

  public static MsException keyError(String message) {
    return new MsException(Kind.KEY_ERROR, message);
  }

  public static MsException indexError(String message) {
    return new MsException(Kind.INDEX_ERROR, message);
  }

  public static MsException runtimeError(String message) {
    return new MsException(Kind.RUNTIME_ERROR, message);
  }

  /**
   * {@code values} as MindSpore's messages print a vector (utils/overload.h): {@code
   * vector(List.of(8, 1))} is {@code [const vector]{8, 1}}; a vector of shapes nests.
   */
  public static String vector(java.util.List<?> values) {
    StringBuilder s = new StringBuilder("[const vector]{");
    for (int i = 0; i < values.size(); i++) {
      s.append(i == 0 ? "" : ", ").append(values.get(i));
    }
    return s.append('}').toString();
  }
}
