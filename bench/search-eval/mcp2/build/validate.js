// Assembles ../queries.jsonl from the hand-written query files and checks it: runs the shared
// ../../build/validate_queries.js for this set. Run from anywhere: node build/validate.js (Node >= 18)
import { fileURLToPath } from "node:url";
import { validateQueries } from "../../build/validate_queries.js";
await validateQueries(fileURLToPath(new URL("..", import.meta.url)));
