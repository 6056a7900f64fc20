import { afterAll } from "vitest";
import { endTestFile } from "./file-end.ts";

// The setup file of every test file (vitest.config.ts): run before each file, its hook after the file's own.
afterAll(endTestFile);
