import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { PublisherError } from "../errors.ts";
import { isValidId } from "./ids.ts";
import { startPortal } from "./index.ts";
import { PAGING_STYLES, type PagingStyle } from "./paging.ts";
import { parseSyntheticSpec } from "./synthetic-dataset.ts";
import { TokenStore } from "./token-store.ts";

/**
 * `npm run portal` runs the reference portal in the foreground;
 * `npm run portal -- token issue|revoke|list` is the Organization
 * Administrator's tool (docs/api.md, Authentication).
 */
const DEFAULT_TOKENS_FILE = ".portal/tokens.json";

const USAGE = `Usage:
  npm run portal -- [--port 4010] [--host 127.0.0.1] [--data file.json | --synthetic 4x25000]
                    [--now ISO] [--seed n] [--latency ms] [--max-concurrency n]
                    [--rate-limit n] [--fault-rate 0..1] [--paging ${PAGING_STYLES.join("|")}]
                    [--auth bearer|scheme:<Scheme>|header:<Name>|query:<name>]
                    [--dialect contract|variant|file.json] [--page-size-max n] [--tokens file]
                    [--empty-lists]
  npm run portal -- token issue --org <organization-id> [--tokens file]
  npm run portal -- token revoke <token-id> [--tokens file]
  npm run portal -- token list [--json] [--tokens file]
Tokens file default: ${DEFAULT_TOKENS_FILE} (in the current directory).`;

class UsageError extends Error {}

const number = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) {
    throw new UsageError(`--${name} must be a number, got "${value}"`);
  }
  return parsed;
};

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      data: { type: "string" },
      now: { type: "string" },
      latency: { type: "string" },
      "max-concurrency": { type: "string" },
      "rate-limit": { type: "string" },
      "fault-rate": { type: "string" },
      seed: { type: "string" },
      synthetic: { type: "string" },
      paging: { type: "string" },
      auth: { type: "string" },
      dialect: { type: "string" },
      "page-size-max": { type: "string" },
      tokens: { type: "string" },
      "empty-lists": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return void console.log(USAGE);
  if (values.data && values.synthetic) throw new UsageError("use either --data or --synthetic");
  const started = performance.now();
  const portal = await startPortal({
    host: values.host,
    port: number("port", values.port),
    dataFile: values.data,
    now: values.now,
    latencyMs: number("latency", values.latency),
    maxConcurrency: number("max-concurrency", values["max-concurrency"]),
    rateLimit: number("rate-limit", values["rate-limit"]),
    faultRate: number("fault-rate", values["fault-rate"]),
    seed: number("seed", values.seed),
    synthetic: values.synthetic ? parseSyntheticSpec(values.synthetic) : undefined,
    paging: values.paging as PagingStyle | undefined,
    auth: values.auth,
    dialect: values.dialect,
    pageSizeMax: number("page-size-max", values["page-size-max"]),
    tokensFile: resolve(values.tokens ?? DEFAULT_TOKENS_FILE),
    emptyLists: values["empty-lists"],
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`Reference portal: ${portal.eventCount} events, ready in ${seconds} s`);
  console.log(`URL: ${portal.url}`);
  console.log(`Token: ${portal.token}`);
  console.log(`(token of organization "${portal.organizationId}", valid until this process stops)`);
  console.log("Press Ctrl-C to stop.");
  const stop = () => {
    portal.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function token(args: string[]): void {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      org: { type: "string" },
      tokens: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const [action, ...rest] = positionals;
  const store = new TokenStore(resolve(values.tokens ?? DEFAULT_TOKENS_FILE));
  if (action === "issue") {
    if (!values.org || !isValidId(values.org)) {
      throw new UsageError("token issue needs --org <organization-id>");
    }
    const { token: secret, info } = store.issue(values.org, true);
    console.error(
      `Issued token ${info.id} for organization "${info.orgId}". It is shown once; store it now.`,
    );
    console.log(secret);
    return;
  }
  if (action === "revoke") {
    const [id] = rest;
    if (!id || rest.length !== 1) throw new UsageError("token revoke needs one <token-id>");
    if (!store.revoke(id)) throw new PublisherError(`no token with id "${id}"`);
    console.log(`Revoked ${id}`);
    return;
  }
  if (action === "list") {
    const tokens = store.list();
    if (values.json) return void console.log(JSON.stringify(tokens, null, 2));
    console.log(["ID", "ORGANIZATION", "CREATED", "REVOKED"].join("\t"));
    for (const t of tokens)
      console.log([t.id, t.orgId, t.createdAt, t.revokedAt ?? "-"].join("\t"));
    return;
  }
  throw new UsageError(`unknown token action "${action ?? ""}"`);
}

async function main(argv: string[]): Promise<void> {
  try {
    if (argv[0] === "token") token(argv.slice(1));
    else await serve(argv);
  } catch (error) {
    const usage =
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    console.error(`portal: ${(error as Error).message}`);
    if (usage) console.error(USAGE);
    process.exit(usage ? 2 : 1);
  }
}

await main(process.argv.slice(2));
