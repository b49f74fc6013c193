#!/usr/bin/env node
// The `desk` command: runs the TypeScript sources directly through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
