/**
 * Warnings about what the outputs had to change to be usable (a subscription
 * trimmed to its size budget), for the build report. Collected while
 * Eleventy renders in this thread; the build reads them once the site is
 * written. A plain module, like src/metrics.ts.
 */

const warnings: string[] = [];

export function addOutputWarning(message: string): void {
  if (!warnings.includes(message)) warnings.push(message);
}

/** The warnings collected since the last call, which forgets them. */
export function takeOutputWarnings(): string[] {
  return warnings.splice(0);
}
