#!/usr/bin/env node
// The `desk` command. Runs the compiled program in dist/ (built on install: `npm run build`),
// or the TypeScript sources through tsx when there is no build or a source file is newer than
// it, so an edited checkout never runs stale code.
import fs from 'node:fs';

const root = new URL('../', import.meta.url);

function builtIsCurrent() {
  let built;
  try {
    built = fs.statSync(new URL('dist/.built', root)).mtimeMs;
  } catch {
    return false;
  }
  const src = new URL('src/', root);
  for (const f of fs.readdirSync(src, { recursive: true })) {
    if (fs.statSync(new URL(f, src)).mtimeMs > built) return false;
  }
  return true;
}

let main;
if (builtIsCurrent()) {
  ({ main } = await import('../dist/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  // The project's own settings (the screen's JSX runtime among them), from whatever folder
  // `desk` is started in.
  register({ tsconfig: new URL('tsconfig.json', root).pathname });
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv);
// Output that could not be written (a full disk behind `> file`) has already failed the command.
process.exitCode = code || process.exitCode;
