// `npm run build` (and npm's prepare step, so `npm install` and `npm ci` run it): bundles src/
// into dist/, which bin/desk.js runs in place of the TypeScript sources. esbuild turns the
// TypeScript into JavaScript and joins Desk's own modules, and the libraries made of hundreds
// of small ES modules, into a few files: loading each module costs a file lookup and a read at
// every start (P-speed-2). Every `await import()` stays a file of its own, so a command loads
// only what it uses. The result is built beside dist/ and swapped in, dist/.built written last,
// so a failed build is never run. Types are checked by `npm test` (tsc), not here. The
// TypeScript client is compiled too, into clients/typescript/dist/, the JavaScript and type
// declarations another project imports.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const next = path.join(root, 'dist.next');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Libraries of many small ES modules, bundled; every other one is loaded from node_modules. */
const BUNDLED = new Set(['kysely', '@sinclair/typebox']);
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

fs.rmSync(next, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outdir: next,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // A bundled library written as CommonJS may call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __deskRequire } from 'node:module'; const require = __deskRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

fs.rmSync(dist, { recursive: true, force: true });
fs.renameSync(next, dist);
fs.writeFileSync(path.join(dist, '.built'), `${new Date().toISOString()}\n`);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const client = path.join(root, 'clients/typescript');
// The client's folder keeps the time it had: npm takes the record of what it installed as out
// of date when a workspace's folder is newer than it, and `npx desk` then looked for desk in
// the registry instead of running this checkout's own, right after `npm install`.
const installed = fs.statSync(client);
fs.rmSync(path.join(client, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(client, 'tsconfig.json')], { stdio: 'inherit' });
fs.utimesSync(client, installed.atime, installed.mtime);
