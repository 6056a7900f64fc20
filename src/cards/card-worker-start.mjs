// Starts src/cards/card-worker.ts in its thread: TypeScript is loaded with
// tsx, as the build's main thread loads it (`node --import tsx`), whatever
// runner started the build (a test runner's threads do not pass it on).
import { register } from "tsx/esm/api";

register();
await import("./card-worker.ts");
