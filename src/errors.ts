/**
 * One base error for everything a site owner may see. Messages say what
 * happened and what to do; the original error rides along as `cause` for
 * debugging and is never printed as a stack trace for an expected failure.
 */
export class PublisherError extends Error {
  override name = "PublisherError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Invalid or missing configuration; the message names the variable. */
export class ConfigError extends PublisherError {
  override name = "ConfigError";
}

/** A template of the site cannot be rendered as it is written; the message names the file. */
export class TemplateError extends PublisherError {
  override name = "TemplateError";
}

/**
 * A command line the command cannot run: an option it does not know or whose
 * value it cannot use, an argument too many or missing. The command prints
 * one line with where its options are listed (src/cli/command-line.ts) and
 * exits 2, apart from failures of a run, which exit 1.
 */
export class UsageError extends PublisherError {
  override name = "UsageError";
}

/** The portal API failed or answered something unusable. */
export class ApiError extends PublisherError {
  override name = "ApiError";
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The portal rejected the token (401/403). */
export class AuthError extends ApiError {
  override name = "AuthError";
  /** The portal's WWW-Authenticate challenge, a hint where it expects the token. */
  readonly challenge: string | null;
  /** The start of the portal's answer, token already removed: its own words on why. */
  readonly body: string | null;
  constructor(
    message: string,
    status?: number,
    options?: { cause?: unknown; challenge?: string | null; body?: string | null },
  ) {
    super(message, status, options);
    this.challenge = options?.challenge ?? null;
    this.body = options?.body ?? null;
  }
}

/** The build refused to publish (for example the shrink guard). */
export class PublishError extends PublisherError {
  override name = "PublishError";
}

/**
 * The weekly digest cannot be sent as it is published: it is not of the
 * week that is due (the site was not rebuilt), or not a digest at all.
 */
export class DigestError extends PublisherError {
  override name = "DigestError";
}

/** The mail server could not be reached or refused the message; SMTP_URL is named without its password. */
export class MailError extends PublisherError {
  override name = "MailError";
}
