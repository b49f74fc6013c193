// `npm run build` (and npm's prepare step, so `npm install` and `npm ci` run it): compiles
// src/ to dist/, which bin/desk.js runs in place of the TypeScript sources. It builds beside
// dist/ and swaps the result in, and writes dist/.built last, so a failed build is never run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const next = path.join(root, 'dist.next');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

if (!fs.existsSync(tsc)) {
  // An install without the dev dependencies: the command runs the sources through tsx.
  console.log('desk: TypeScript is not installed, so nothing was compiled; `desk` runs from src/.');
  process.exit(0);
}
fs.rmSync(next, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', next], { cwd: root, stdio: 'inherit' });
fs.cpSync(path.join(root, 'src', 'screen', 'assets'), path.join(next, 'screen', 'assets'), { recursive: true });

// The screen's TSX imports its runtime as `#screen/jsx-runtime`, which package.json maps to
// the TypeScript source; the compiled pages import the compiled runtime instead.
const runtime = path.join(next, 'screen', 'jsx-runtime.js');
for (const file of fs.readdirSync(next, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.js')) continue;
  const full = path.join(next, file);
  const text = fs.readFileSync(full, 'utf8');
  if (!text.includes('"#screen/jsx-runtime"')) continue;
  const rel = path.relative(path.dirname(full), runtime).split(path.sep).join('/');
  fs.writeFileSync(
    full,
    text.replaceAll('"#screen/jsx-runtime"', JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)),
  );
}

fs.rmSync(dist, { recursive: true, force: true });
fs.renameSync(next, dist);
fs.writeFileSync(path.join(dist, '.built'), `${new Date().toISOString()}\n`);
