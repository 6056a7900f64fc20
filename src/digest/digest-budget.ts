import type { Digest } from "./digest-content.ts";

/**
 * Gmail shows only the first 102 KB of a message's HTML and hides the rest
 * behind "[Message clipped] View entire message", a link few readers
 * follow, and which loses the footer (the unsubscribe link among it). A
 * digest's mail stays under it with room to spare: 100,000 bytes, counted
 * in UTF-8 as the HTML is sent. The text alternative is held to the same.
 */
export const DIGEST_MAX_BYTES = 100_000;

/**
 * What `render` writes of the digest, within `maxBytes`: the digest as it
 * is when it fits (it nearly always does: DIGEST_LIMITS), else with each
 * list's shown lines halved, again until it fits, each list then saying how
 * many more the site has. A digest with no lines left is a few kilobytes,
 * so this ends after a handful of renders at most.
 */
export function withinBudget(
  digest: Digest,
  render: (digest: Digest) => string,
  maxBytes = DIGEST_MAX_BYTES,
): string {
  let current = digest;
  for (;;) {
    const text = render(current);
    if (Buffer.byteLength(text) <= maxBytes || !current.sections.some((s) => s.lines.length)) {
      return text;
    }
    current = withFewerLines(current);
  }
}

function withFewerLines(digest: Digest): Digest {
  return {
    ...digest,
    sections: digest.sections.map((section) => {
      const keep = Math.floor(section.lines.length / 2);
      return {
        ...section,
        lines: section.lines.slice(0, keep),
        more: section.more + section.lines.length - keep,
      };
    }),
  };
}
