package io.jxds.toolkit;

/**
 * Input the toolkit cannot read: a file that cannot be read, JSON that is malformed or is not xDS,
 * a resource of a type jxds does not know, a type URL that does not match where it stands. The
 * message names the file (and the line, for JSON) and what is wrong; it is meant to be shown as it
 * is, without a stack trace.
 */
public final class BadInputException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the whole message, naming the source and what is wrong
   */
  public BadInputException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message the whole message, naming the source and what is wrong
   * @param cause the underlying failure
   */
  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
