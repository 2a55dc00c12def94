#!/usr/bin/env node
// The `hearth` command. Runs the TypeScript sources through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli.ts');
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
