import { writeSync } from "node:fs";
import { parseArgs } from "node:util";
import { type EnvSetting, SETTINGS_SECTIONS } from "../config/env-settings.ts";
import { UsageError } from "../errors.ts";

/**
 * The command line of every entry point (docs/commands.md): a command
 * declares how it is started, what it does, its options and the settings it
 * reads; from that one declaration come its `--help` and the one line it
 * prints for a command line it cannot run, never a stack trace. Options are
 * read by node:util's parseArgs in strict mode.
 */

export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  /** A boolean that defaults to true is offered as `--no-<name>`. */
  readonly default?: string | boolean;
  /** What the value is, as the usage shows it: `<dir>`. */
  readonly value?: string;
  /** The only values the option takes. */
  readonly choices?: readonly string[];
  /** What it does, in one line. */
  readonly meaning: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** How it is started, up to its options: "npm run build", "node --import tsx bench/cards.ts". */
  readonly run: string;
  /** What it does, in a sentence or two. */
  readonly summary: string;
  /** What follows `run` on each usage line; one "[options]" line when not given. */
  readonly forms?: readonly string[];
  readonly options: O;
  /** Whether it takes arguments besides its options (`forms` names them). */
  readonly positionals?: boolean;
  /** The environment variables it reads, mostly the lists of the readers in src/config. */
  readonly settings: readonly EnvSetting[];
}

type ValueOf<S extends OptionSpec> = S extends { readonly choices: readonly (infer C)[] }
  ? C
  : S["type"] extends "boolean"
    ? boolean
    : string;

export type OptionValues<O extends OptionSpecs> = {
  readonly [K in keyof O]: O[K] extends { readonly default: string | boolean }
    ? ValueOf<O[K]>
    : ValueOf<O[K]> | undefined;
};

export interface CommandLine<O extends OptionSpecs> {
  readonly values: OptionValues<O>;
  readonly positionals: readonly string[];
}

/** Keeps a declaration's literal types, so that its values are typed by its options. */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}

const HELP: OptionSpec = { type: "boolean", short: "h", meaning: "print this help and exit" };

/**
 * The command line read: its options and arguments, or "help" when it asks
 * for the usage. A command line that cannot be read throws a UsageError
 * naming the option or argument.
 */
export function parseCommandLine<O extends OptionSpecs>(
  command: Command<O>,
  args: readonly string[],
): CommandLine<O> | "help" {
  const options = optionsOf(command);
  // parseArgs takes only its own keys, and none of them undefined.
  const config = Object.fromEntries(
    Object.entries(options).map(([name, { type, short, default: fallback }]) => [
      name,
      { type, ...(short && { short }), ...(fallback !== undefined && { default: fallback }) },
    ]),
  );
  // --help wins over whatever else is wrong on the line.
  const { tokens } = parseArgs({
    args: [...args],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((token) => token.kind === "option" && token.name === "help")) return "help";
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: config,
      strict: true,
      allowPositionals: command.positionals ?? false,
      allowNegative: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error, Object.keys(options)), { cause: error });
  }
  for (const [name, spec] of Object.entries(options)) {
    const value = parsed.values[name];
    if (spec.choices && typeof value === "string" && !spec.choices.includes(value)) {
      throw new UsageError(`--${name}: expected ${spec.choices.join(", ")}; got "${value}"`);
    }
  }
  return {
    values: parsed.values as OptionValues<O>,
    positionals: parsed.positionals,
  };
}

/**
 * The command line of this process, read. Asked for help, it prints the
 * usage and exits 0; a command line it cannot read ends the process with
 * one line (stopWithUsageError), before the command has done anything.
 */
export function readCommandLine<O extends OptionSpecs>(
  command: Command<O>,
  args: readonly string[] = process.argv.slice(2),
): CommandLine<O> {
  try {
    const line = parseCommandLine(command, args);
    if (line !== "help") return line;
  } catch (error) {
    if (error instanceof UsageError) stopWithUsageError(command, error.message);
    throw error;
  }
  // Written at once: process.exit does not wait for a pipe to take buffered output.
  writeSync(1, usageText(command));
  process.exit(0);
}

/** Prints the one line of a usage error and exits 2, for commands outside runCli. */
export function stopWithUsageError(command: Command, message: string): never {
  writeSync(2, `${usageErrorLine(command, message)}\n`);
  process.exit(2);
}

export function usageErrorLine(command: Command, message: string): string {
  return `error: ${message} (${startedWith(command)} --help lists the options)`;
}

/** The whole of `--help`: usage lines, summary, options, settings. */
export function usageText(command: Command): string {
  const start = startedWith(command);
  const forms = (command.forms ?? ["[options]"]).map((form) => `${start} ${form}`);
  const options = Object.entries(optionsOf(command)).map(([name, spec]) => ({
    syntax: optionSyntax(name, spec),
    meaning: optionMeaning(spec),
  }));
  const width = Math.max(...options.map(({ syntax }) => syntax.length)) + 4;
  return [
    `Usage: ${forms.join("\n       ")}`,
    "",
    ...wrap(command.summary, 0),
    "",
    "Options:",
    ...options.flatMap(({ syntax, meaning }) => indented(`  ${syntax}`, width, meaning)),
    "",
    ...settingsLines(command.settings),
    "",
  ].join("\n");
}

function optionsOf(command: Command): OptionSpecs {
  return { ...command.options, help: HELP };
}

/** What an npm script's options follow: `npm run build --`; a `--` already there serves. */
function startedWith(command: Command): string {
  const npm = command.run.startsWith("npm ") && !command.run.includes(" -- ");
  return npm ? `${command.run} --` : command.run;
}

function optionSyntax(name: string, spec: OptionSpec): string {
  const short = spec.short ? `-${spec.short}, ` : "";
  if (spec.type === "boolean") return `${short}--${spec.default === true ? "no-" : ""}${name}`;
  return `${short}--${name} ${spec.value ?? "<value>"}`;
}

function optionMeaning(spec: OptionSpec): string {
  const choices = spec.choices ? `: ${spec.choices.join(", ")}` : "";
  const fallback =
    typeof spec.default === "string" && spec.default ? ` (default ${spec.default})` : "";
  return `${spec.meaning}${choices}${fallback}`;
}

const LINE_WIDTH = 80;

/** The settings by section of docs/configuration.md, each name once, wrapped. */
function settingsLines(settings: readonly EnvSetting[]): string[] {
  if (settings.length === 0) return ["Settings it reads: none."];
  const sections = SETTINGS_SECTIONS.map((section) => ({
    section,
    names: [...new Set(settings.filter((s) => s.section === section).map((s) => s.name))],
  })).filter(({ names }) => names.length > 0);
  const width = Math.max(...sections.map(({ section }) => section.length)) + 4;
  const from = sections.some(({ section }) => section === "The .env file")
    ? "environment or .env"
    : "environment";
  return [
    `Settings it reads (${from}; docs/configuration.md explains each):`,
    ...sections.flatMap(({ section, names }) => indented(`  ${section}`, width, names.join(", "))),
  ];
}

/** `head` padded to `width`, then `text` wrapped beside it. */
function indented(head: string, width: number, text: string): string[] {
  return wrap(text, width).map((line, index) =>
    index === 0 ? `${head.padEnd(width)}${line.trimStart()}` : line,
  );
}

/** `text` in lines of at most LINE_WIDTH, each after `indent` spaces; a longer word stays whole. */
function wrap(text: string, indent: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent + line.length + 1 + word.length > LINE_WIDTH) {
      lines.push(" ".repeat(indent) + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, " ".repeat(indent) + line];
}

/** parseArgs' error as one line naming the option or argument; its own text is several. */
function describeParseError(error: unknown, known: readonly string[]): string {
  const { code, message } = error as { code?: string; message?: string };
  const quoted = /'([^']*)'/.exec(message ?? "")?.[1] ?? "";
  // "Option '-h, --help' does not take an argument": the long name is the one to show.
  const option = quoted.split(/[\s,]+/).findLast((word) => word.startsWith("-")) ?? quoted;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const near = closest(option.replace(/^-+/, ""), known);
      return `unknown option ${option}${near ? `; did you mean --${near}?` : ""}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return message?.includes("does not take")
        ? `option ${option} takes no value`
        : `option ${option} needs a value`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument "${quoted}"`;
    default:
      throw error;
  }
}

/** The known option a mistyped one most likely meant: at most two letters off. */
function closest(typed: string, known: readonly string[]): string | undefined {
  const ranked = known
    .map((name) => ({ name, distance: editDistance(typed, name) }))
    .filter(({ distance }) => distance <= Math.min(2, typed.length - 1))
    .sort((a, b) => a.distance - b.distance);
  return ranked[0]?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
