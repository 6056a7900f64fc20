import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { PublisherError } from "../errors.ts";

/**
 * API tokens: `ecp_<id>_<secret>`. The id (12 lowercase letters and digits) is
 * public and names the token in `token list` and `token revoke`; the secret
 * is 32 random bytes. Only a SHA-256 hash of the whole token is stored: the
 * tokens carry 256 bits of entropy, so a fast hash cannot be brute-forced and
 * a slow password hash (scrypt, argon2) would only cost time on every request.
 */
const TOKEN = /^ecp_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

export interface TokenRecord {
  id: string;
  orgId: string;
  /** Hex SHA-256 of the whole token. */
  hash: string;
  createdAt: string;
  revokedAt: string | null;
}

export type TokenInfo = Omit<TokenRecord, "hash">;

export type Verification =
  | { status: "valid"; id: string; orgId: string }
  | { status: "revoked" | "unknown" | "malformed" };

interface TokenFile {
  version: 1;
  tokens: TokenRecord[];
}

export class TokenFileError extends PublisherError {
  override name = "TokenFileError";
}

const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

function newTokenId(): string {
  const bytes = randomBytes(12);
  return Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("");
}

/**
 * Tokens in memory (issued for a running portal) and in an optional JSON file
 * shared with the `token` CLI. The file is re-read when it changes (checked at
 * most once a second), so tokens issued or revoked by the CLI take effect in
 * a running portal.
 */
export class TokenStore {
  private readonly memory = new Map<string, TokenRecord>();
  private fileTokens = new Map<string, TokenRecord>();
  private fileMtimeMs = -1;
  private checkedAt = 0;

  constructor(
    readonly file?: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.reload();
  }

  /** Issues a token; it is persisted when the store has a file and `persist` is set. */
  issue(orgId: string, persist = false): { token: string; info: TokenInfo } {
    const id = newTokenId();
    const token = `ecp_${id}_${randomBytes(32).toString("base64url")}`;
    const record: TokenRecord = {
      id,
      orgId,
      hash: hashToken(token),
      createdAt: new Date(this.clock()).toISOString(),
      revokedAt: null,
    };
    if (persist && this.file) {
      this.reload(true);
      this.fileTokens.set(id, record);
      this.save();
    } else {
      this.memory.set(id, record);
    }
    const { hash: _hash, ...info } = record;
    return { token, info };
  }

  /** Returns false for an unknown id; revoking twice keeps the first time. */
  revoke(id: string): boolean {
    const inMemory = this.memory.get(id);
    if (inMemory) {
      inMemory.revokedAt ??= new Date(this.clock()).toISOString();
      return true;
    }
    this.reload(true);
    const record = this.fileTokens.get(id);
    if (!record) return false;
    record.revokedAt ??= new Date(this.clock()).toISOString();
    this.save();
    return true;
  }

  list(): TokenInfo[] {
    this.reload(true);
    return [...this.fileTokens.values(), ...this.memory.values()].map(
      ({ hash: _hash, ...info }) => info,
    );
  }

  verify(token: string): Verification {
    const match = TOKEN.exec(token);
    if (!match) return { status: "malformed" };
    try {
      this.reload();
    } catch (error) {
      // A half-edited or broken file must not take the API down: keep the
      // tokens read last time and say why once per change.
      this.warnOnce((error as Error).message);
    }
    const id = match[1] as string;
    const record = this.memory.get(id) ?? this.fileTokens.get(id);
    if (!record) return { status: "unknown" };
    const presented = Buffer.from(hashToken(token), "hex");
    const stored = Buffer.from(record.hash, "hex");
    // Constant-time comparison, so response timing reveals nothing about the secret.
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) {
      return { status: "unknown" };
    }
    if (record.revokedAt) return { status: "revoked" };
    return { status: "valid", id, orgId: record.orgId };
  }

  private lastWarning = "";

  private warnOnce(message: string): void {
    if (message === this.lastWarning) return;
    this.lastWarning = message;
    console.warn(`portal: ${message}; keeping the tokens read before`);
  }

  private reload(force = false): void {
    if (!this.file) return;
    const now = this.clock();
    if (!force && now - this.checkedAt < 1000) return;
    this.checkedAt = now;
    if (!existsSync(this.file)) {
      this.fileTokens = new Map();
      this.fileMtimeMs = -1;
      return;
    }
    const mtimeMs = statSync(this.file).mtimeMs;
    if (mtimeMs === this.fileMtimeMs && !force) return;
    let parsed: TokenFile;
    try {
      parsed = JSON.parse(readFileSync(this.file, "utf8")) as TokenFile;
    } catch (error) {
      throw new TokenFileError(`tokens file ${this.file} is not valid JSON`, { cause: error });
    }
    if (parsed?.version !== 1 || !Array.isArray(parsed.tokens)) {
      throw new TokenFileError(`tokens file ${this.file} has an unknown format`);
    }
    this.fileTokens = new Map(parsed.tokens.map((t) => [t.id, t]));
    this.fileMtimeMs = mtimeMs;
  }

  private save(): void {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const data: TokenFile = { version: 1, tokens: [...this.fileTokens.values()] };
    // Write-then-rename so a reader never sees half a file; 0600 because the
    // hashes, while not secrets, are nobody else's business.
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.file);
    this.fileMtimeMs = statSync(this.file).mtimeMs;
  }
}
