#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the CLI needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
await main();
