import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse, type TomlTable } from "smol-toml";
import { ConfigError } from "../errors.ts";

/** The repository's netlify.toml: the one place for headers and the rebuild schedule. */
export const NETLIFY_TOML_PATH = fileURLToPath(new URL("../../netlify.toml", import.meta.url));

/** Reads and parses a netlify.toml; a syntax error names the file and the TOML position. */
export function readNetlifyToml(path: string = NETLIFY_TOML_PATH): TomlTable {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`netlify.toml: cannot read ${path}.`, { cause: error });
  }
  try {
    return parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new ConfigError(`netlify.toml: ${path} is not valid TOML (${detail}).`, { cause: error });
  }
}
