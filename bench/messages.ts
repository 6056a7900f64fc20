import { defineCommand, readCommandLine } from "../src/cli/command-line.ts";
import { messageSource, messagesFor } from "../src/i18n/messages.ts";

/**
 * What the templates' `t` filter costs a call (docs/performance.md,
 * "Messages"): a 10,000-event build asks for messages hundreds of thousands
 * of times. The calls of a page's mix (plain labels, a calendar's name, a
 * count, a page number) through the ICU messages (src/i18n/messages.ts:
 * compiled once per key, formatted texts kept by their arguments), against
 * the floor of filling `{name}` placeholders with a string replace, as the
 * messages were filled before they were ICU MessageFormat.
 */
const MESSAGES_BENCH = defineCommand({
  run: "node --import tsx bench/messages.ts",
  summary:
    "Nanoseconds a call of the `t` filter costs on a page's mix of messages, in English and Polish, against a plain {name} string replace; the median of five runs.",
  options: {},
  settings: [],
});

readCommandLine(MESSAGES_BENCH);

type Values = Readonly<Record<string, string | number>> | undefined;

const PLAIN = ["when", "where", "allDay", "online", "skipToContent", "home", "calendars"];
const NAMES = ["Culture", "Sport", "Community", "Markets"];
const calls: [string, Values][] = [];
for (let i = 0; i < 1000; i++) {
  for (const key of PLAIN) calls.push([key, undefined]);
  calls.push(["backToCalendar", { name: NAMES[i % 4] ?? "" }]);
  calls.push(["allEventsOf", { name: NAMES[(i + 1) % 4] ?? "" }]);
  calls.push(["eventCount", { count: i % 50 }]);
  calls.push(["pageOf", { page: 1 + (i % 20), count: 20 }]);
}

/** The median nanoseconds a call, over five runs of every call a hundred times. */
function nsPerCall(t: (key: string, values: Values) => string): number {
  for (const [key, values] of calls) t(key, values);
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const start = process.hrtime.bigint();
    for (let round = 0; round < 100; round++) for (const [key, values] of calls) t(key, values);
    runs.push(Number(process.hrtime.bigint() - start) / (100 * calls.length));
  }
  return runs.sort((a, b) => a - b)[2] ?? 0;
}

const english = messageSource("en");
const floor = nsPerCall((key, values) =>
  (english[key] ?? "").replace(/\{(\w+)\}/g, (whole, name: string) =>
    values && name in values ? String(values[name]) : whole,
  ),
);
const en = messagesFor("en-GB");
const pl = messagesFor("pl");
const figures = {
  calls: calls.length * 100,
  "string replace (floor)": floor,
  "ICU, en-GB": nsPerCall((key, values) => en.format(key, values)),
  "ICU, pl": nsPerCall((key, values) => pl.format(key, values)),
};
for (const [name, value] of Object.entries(figures)) {
  console.log(`${name.padEnd(24)} ${name === "calls" ? value : `${value.toFixed(0)} ns a call`}`);
}
