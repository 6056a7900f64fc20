import type { DeployTarget } from "../config/deploy.ts";
import type { OutputCount } from "./output-files.ts";
import { formatBytes, formatCount } from "./report.ts";

/**
 * What each host refuses, as its documentation states it, checked against
 * what a build wrote, so the build log says so before the deploy fails
 * (docs/deploy.md, "Host limits"). Netlify, an S3 bucket and a web server of
 * one's own set no limit a site of this kind reaches.
 */
interface HostLimits {
  readonly name: string;
  /** Files in one deploy; `paid` when a paid plan allows more. */
  readonly files?: { readonly free: number; readonly paid?: number };
  /** The largest file, and the whole site, in bytes and as the host writes it. */
  readonly largestFile?: SizeLimit;
  readonly totalBytes?: SizeLimit;
}

interface SizeLimit {
  readonly bytes: number;
  readonly label: string;
}

const MiB = 1024 * 1024;

const LIMITS: Readonly<Partial<Record<DeployTarget, HostLimits>>> = {
  "cloudflare-pages": {
    name: "Cloudflare Pages",
    files: { free: 20_000, paid: 100_000 },
    largestFile: { bytes: 25 * MiB, label: "25 MiB" },
  },
  // GitHub Pages: "Published GitHub Pages sites may be no larger than 1 GB"
  // (decimal here, the stricter reading); deploys also time out after 10 minutes.
  "github-pages": { name: "GitHub Pages", totalBytes: { bytes: 1_000_000_000, label: "1 GB" } },
};

/** A limit counts as near from this share of it on, so a growing site is warned in time. */
const NEAR = 0.9;

export interface HostCheck {
  /** The report's line about the host, e.g. "Cloudflare Pages: 540 of 20,000 files, …"; null: no limits. */
  readonly line: string | null;
  readonly warnings: readonly string[];
}

export interface HostCheckInput {
  readonly target: DeployTarget;
  readonly count: OutputCount;
  /** event.ics files this build wrote: what EVENT_ICS=inline would save. */
  readonly eventIcsFiles: number;
  /** Event cards and their oEmbed answers this build wrote: what EVENT_EMBEDS=off would save. */
  readonly eventEmbedFiles?: number;
  /** Share cards in the structured data's shapes this build wrote: what SHARE_CARDS=og would save. */
  readonly structuredDataCards?: number;
}

export function checkHostLimits({
  target,
  count,
  eventIcsFiles,
  eventEmbedFiles = 0,
  structuredDataCards = 0,
}: HostCheckInput): HostCheck {
  const limits = LIMITS[target];
  if (!limits) return { line: null, warnings: [] };
  const parts: string[] = [];
  const warnings: string[] = [];
  const saving = [
    eventIcsFiles > 0
      ? ` EVENT_ICS=inline writes ${formatCount(eventIcsFiles)} fewer files (no event.ics per event).`
      : "",
    eventEmbedFiles > 0
      ? ` EVENT_EMBEDS=off writes ${formatCount(eventEmbedFiles)} fewer files (no card and oEmbed answer per event).`
      : "",
    structuredDataCards > 0
      ? ` SHARE_CARDS=og writes ${formatCount(structuredDataCards)} fewer files (one share card per event instead of four).`
      : "",
  ].join("");

  if (limits.files) {
    const { free, paid } = limits.files;
    parts.push(
      `${formatCount(count.files)} of ${formatCount(free)} files${paid ? ` (paid plans ${formatCount(paid)})` : ""}`,
    );
    if (paid !== undefined && count.files > paid) {
      warnings.push(
        `${formatCount(count.files)} files: more than ${limits.name} takes on any plan (${formatCount(paid)}; free plan ${formatCount(free)}).${saving}`,
      );
    } else if (count.files > free) {
      warnings.push(
        `${formatCount(count.files)} files: more than ${limits.name} takes on the free plan (${formatCount(free)})${paid ? `; paid plans take ${formatCount(paid)}` : ""}.${saving}`,
      );
    } else if (count.files > free * NEAR) {
      warnings.push(
        `${formatCount(count.files)} files: close to the ${formatCount(free)} ${limits.name} takes on the free plan.${saving}`,
      );
    }
  }
  const largest = limits.largestFile;
  if (largest && count.largestFile) {
    const { path, bytes } = count.largestFile;
    parts.push(`largest file ${formatBytes(bytes)} of ${largest.label}`);
    if (bytes > largest.bytes) {
      warnings.push(
        `${path} is ${formatBytes(bytes)}: ${limits.name} refuses files over ${largest.label}.`,
      );
    }
  }
  const total = limits.totalBytes;
  if (total) {
    parts.push(`${formatBytes(count.bytes)} of ${total.label}`);
    if (count.bytes > total.bytes) {
      warnings.push(
        `The site is ${formatBytes(count.bytes)}: ${limits.name} publishes at most ${total.label}.`,
      );
    } else if (count.bytes > total.bytes * NEAR) {
      warnings.push(
        `The site is ${formatBytes(count.bytes)}: close to the ${total.label} ${limits.name} publishes.`,
      );
    }
  }
  return { line: `${limits.name}: ${parts.join(", ")}`, warnings };
}
