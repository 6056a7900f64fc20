import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    // A developer's .env must not leak into the commands the tests run.
    env: { ENV_FILE: "none" },
    // Builds and browser tests are heavy; two workers match the 2-core machines we target.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
