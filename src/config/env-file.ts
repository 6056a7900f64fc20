import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { ConfigError } from "../errors.ts";
import { envSettings } from "./env-settings.ts";

export interface EnvFileResult {
  /** The file read, or null when there was none (or ENV_FILE=none). */
  readonly file: string | null;
  /** Variables taken from the file (those the environment did not already set). */
  readonly applied: readonly string[];
  /** Variables in the file that the environment overrode. */
  readonly overridden: readonly string[];
}

/** What loadEnvFile reads besides the file itself. */
export const ENV_FILE_SETTINGS = envSettings("The .env file", ["ENV_FILE"]);

/** The .env file's path (ENV_FILE, or `.env` in `root`); null with ENV_FILE=none. */
export function envFilePath(
  env: NodeJS.ProcessEnv = process.env,
  root: string = process.cwd(),
): string | null {
  const named = env.ENV_FILE?.trim();
  if (named?.toLowerCase() === "none") return null;
  return path.resolve(root, named || ".env");
}

/**
 * Reads settings from a `.env` file in the project root (the folder the npm
 * scripts run in), so the block `npm run check-api` prints can be saved once.
 * A variable already in the environment wins over the file, as with Node's
 * `--env-file` and Netlify's environment: the file fills gaps, it never
 * overrides. `ENV_FILE` names another file; `ENV_FILE=none` reads none. The
 * format is Node's (`util.parseEnv`): `NAME=value`, optional `export `,
 * single, double or backtick quotes, `#` comments.
 */
export function loadEnvFile(
  env: NodeJS.ProcessEnv = process.env,
  root: string = process.cwd(),
): EnvFileResult {
  const named = env.ENV_FILE?.trim();
  const file = envFilePath(env, root);
  if (file === null) return { file: null, applied: [], overridden: [] };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!named && (code === "ENOENT" || code === "ENOTDIR")) {
      return { file: null, applied: [], overridden: [] };
    }
    throw new ConfigError(
      `ENV_FILE: cannot read "${named || ".env"}" (${code ?? "unreadable"}); expected a file of NAME=value lines, or ENV_FILE=none.`,
    );
  }
  const applied: string[] = [];
  const overridden: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (value === undefined) continue;
    if (Object.hasOwn(env, name)) overridden.push(name);
    else {
      env[name] = value;
      applied.push(name);
    }
  }
  return { file, applied, overridden };
}
