// Creates .dev.vars from the committed example on first `npm start`, so local runs have a key.
import { copyFileSync, existsSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("created .dev.vars from .dev.vars.example (dev tenant key: dev-key)");
}
