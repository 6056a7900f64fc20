import { resolve } from "node:path";
import { PublisherError, UsageError } from "../errors.ts";
import { isValidId } from "../portal/ids.ts";
import { startPortal } from "../portal/index.ts";
import { PAGING_STYLES } from "../portal/paging.ts";
import { parseSyntheticSpec } from "../portal/synthetic-dataset.ts";
import { TokenStore } from "../portal/token-store.ts";
import { type CommandLine, defineCommand } from "./command-line.ts";
import { runCli } from "./run.ts";

/**
 * `npm run portal` runs the reference portal in the foreground;
 * `npm run portal -- token issue|revoke|list` is the Organization
 * Administrator's tool (docs/api.md, Authentication).
 */
const DEFAULT_TOKENS_FILE = ".portal/tokens.json";

const TOKENS_OPTION = {
  type: "string",
  value: "<file>",
  default: DEFAULT_TOKENS_FILE,
  meaning: "the tokens file, shared by the portal and its token commands",
} as const;

const PORTAL = defineCommand({
  run: "npm run portal",
  summary:
    "Runs the reference portal in the foreground (http://127.0.0.1:4010/v1 by default) and prints its URL and a token of the dataset's first organization; docs/api.md has its knobs. For tokens that outlive it: npm run portal -- token --help.",
  forms: ["[options]", "token issue|revoke|list [options]"],
  options: {
    port: { type: "string", value: "<n>", meaning: "the port; 0 picks a free one (default 4010)" },
    host: { type: "string", value: "<address>", meaning: "the address (default 127.0.0.1)" },
    data: { type: "string", value: "<file.json>", meaning: "serve this dataset (docs/dataset.md)" },
    synthetic: {
      type: "string",
      value: "<CxE>",
      meaning: "serve a generated dataset of C calendars of E events, e.g. 4x25000",
    },
    now: { type: "string", value: "<ISO>", meaning: "pin the portal's clock" },
    seed: { type: "string", value: "<n>", meaning: "seed of the synthetic dataset and the faults" },
    latency: { type: "string", value: "<ms>", meaning: "answer each request this much later" },
    "max-concurrency": {
      type: "string",
      value: "<n>",
      meaning: "requests served at once; the rest wait",
    },
    "rate-limit": {
      type: "string",
      value: "<n>",
      meaning: "requests per second per token; beyond it 429",
    },
    "fault-rate": {
      type: "string",
      value: "<0..1>",
      meaning: "share of requests answered with a fault",
    },
    paging: {
      type: "string",
      value: "<style>",
      choices: PAGING_STYLES,
      meaning: "how lists are paged, link by default",
    },
    auth: {
      type: "string",
      value: "<mode>",
      meaning: "where the token goes: bearer, scheme:<Scheme>, header:<Name> or query:<name>",
    },
    dialect: {
      type: "string",
      value: "<dialect>",
      meaning: "record shapes: contract (default), variant or a dialect file",
    },
    "page-size-max": { type: "string", value: "<n>", meaning: "the largest page size accepted" },
    tokens: TOKENS_OPTION,
    "empty-lists": {
      type: "boolean",
      meaning: "answer every list with 200 [], as some portals answer an expired token",
    },
  },
  settings: [],
});

const TOKEN = defineCommand({
  run: "npm run portal -- token",
  summary:
    "The Organization Administrator's tool: issues a token for an organization (shown once), revokes one by its id, lists them without their secrets.",
  forms: [
    "issue --org <organization-id> [--tokens <file>]",
    "revoke <token-id> [--tokens <file>]",
    "list [--json] [--tokens <file>]",
  ],
  options: {
    org: { type: "string", value: "<organization-id>", meaning: "issue: the token's organization" },
    json: { type: "boolean", meaning: "list: as JSON" },
    tokens: TOKENS_OPTION,
  },
  positionals: true,
  settings: [],
});

const number = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) {
    throw new UsageError(`--${name} must be a number, got "${value}"`);
  }
  return parsed;
};

async function serve({ values }: CommandLine<typeof PORTAL.options>): Promise<void> {
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
    paging: values.paging,
    auth: values.auth,
    dialect: values.dialect,
    pageSizeMax: number("page-size-max", values["page-size-max"]),
    tokensFile: resolve(values.tokens),
    emptyLists: values["empty-lists"],
  }).catch((error: unknown) => {
    throw startFailure(error);
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

/**
 * The portal checks its options with RangeErrors, each naming the option: a
 * command line it cannot run. A system error (the port taken, a file
 * unreadable) is said in one line too.
 */
function startFailure(error: unknown): unknown {
  if (error instanceof RangeError) return new UsageError(error.message, { cause: error });
  const { code, message } = error as { code?: unknown; message?: string };
  if (typeof code === "string" && message) return new PublisherError(message, { cause: error });
  return error;
}

async function manageTokens({ values, positionals }: CommandLine<typeof TOKEN.options>) {
  const [action, ...rest] = positionals;
  const store = new TokenStore(resolve(values.tokens));
  if ((action === "issue" || action === "list") && rest.length > 0) {
    throw new UsageError(`unexpected argument "${rest[0]}"`);
  }
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
  throw new UsageError(
    action === undefined ? "token needs issue, revoke or list" : `unknown token action "${action}"`,
  );
}

const args = process.argv.slice(2);
if (args[0] === "token") runCli(TOKEN, manageTokens, args.slice(1));
else runCli(PORTAL, serve, args);
