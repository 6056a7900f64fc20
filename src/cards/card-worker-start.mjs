// Starts src/cards/card-worker.ts in its process: TypeScript is loaded with
// tsx, as the build loads it (`node --import tsx`), whatever runner started
// the build (a test runner's processes do not pass it on).
import { register } from "tsx/esm/api";

register();
await import("./card-worker.ts");
