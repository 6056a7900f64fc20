/**
 * `npm <args>` as a command line: through the npm that started this
 * process (`npm_execpath`, set by `npm run`), so that a service started as
 * `/usr/bin/npm run …` needs no npm on its PATH, or else the one on PATH.
 */
export function npmCommand(args: readonly string[]): readonly [string, ...string[]] {
  const npm = process.env.npm_execpath;
  return npm?.endsWith(".js") ? [process.execPath, npm, ...args] : ["npm", ...args];
}
