import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    demoSiteRoot: string;
  }
}

/** A folder for the one demo build a test run shares (see test/helpers/demo-site.ts). */
export function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), "ecp-demo-site-"));
  project.provide("demoSiteRoot", root);
  return () => rmSync(root, { recursive: true, force: true });
}
