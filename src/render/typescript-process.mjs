// Starts a TypeScript module (the first argument, a file URL) as this child
// process's program: TypeScript is loaded with tsx, as the build loads it
// (`node --import tsx`), whatever runner started the build (a test runner's
// processes do not pass it on). The module reads its own arguments from the
// second on (process.argv[3]...).
import { register } from "tsx/esm/api";

register();
await import(process.argv[2]);
