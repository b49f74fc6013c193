import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk } from '../../../test/helpers/factories.ts';
import { serve, type Served } from './server.ts';

// The client as another project gets it: the package built by its own tsconfig (as `npm pack`
// builds it), imported by name from a project compiled under strict settings, and run by plain
// Node, with no TypeScript loader, against a real desk.

const run = promisify(execFile);
const CLIENT = path.resolve(import.meta.dirname, '..');
const ROOT = path.resolve(CLIENT, '../..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const INTEGRATOR = `import { createDeskClient, DeskApiError, DeskConnectionError, type ErrorCode } from 'desk-client';
import { fetch as undiciFetch, Agent } from 'undici';

const desk = createDeskClient({ baseUrl: process.env.DESK_URL ?? '', key: process.env.DESK_KEY ?? '' });
// The README's fetch without Node's 5-minute wait for an answer's headers, as written there.
const patient = createDeskClient({
  baseUrl: process.env.DESK_URL ?? '',
  key: process.env.DESK_KEY ?? '',
  fetch: (url, init) => undiciFetch(url, { ...init, dispatcher: new Agent({ headersTimeout: 0, bodyTimeout: 0 }) }),
});
const viaUndici = await patient.me();
const checked = await desk.check();
const me = await desk.me({ signal: AbortSignal.timeout(10_000) });
let code: ErrorCode | \`http_\${number}\` | null = null;
try {
  await desk.work.get(999_999);
} catch (e) {
  if (e instanceof DeskApiError) code = e.code;
  else if (e instanceof DeskConnectionError) console.error(e.idempotencyKey);
  else throw e;
}
// @ts-expect-error: a code the contract does not name cannot be compared with one it does
if (code === 'not_permited') console.log('unreachable');
console.log(JSON.stringify({ checked: checked.desk.id, desk: me.desk.id, open: me.work.open, code, undici: viaUndici.desk.id }));
`;

describe('desk-client as a package', () => {
  let store: TestStore;
  let served: Served;
  let dir: string;

  beforeAll(async () => {
    store = await sqliteStore();
    served = await serve(store);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-integrator-'));
  });
  afterAll(async () => {
    await served.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('compiles under strict settings and runs under plain Node', async () => {
    const pkg = path.join(dir, 'node_modules', 'desk-client');
    fs.mkdirSync(pkg, { recursive: true });
    for (const name of ['package.json', 'tsconfig.json', 'src'])
      fs.cpSync(path.join(CLIENT, name), path.join(pkg, name), { recursive: true });
    await run(process.execPath, [tsc, '-p', path.join(pkg, 'tsconfig.json')]);
    expect(fs.existsSync(path.join(pkg, 'dist', 'index.js'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'dist', 'index.d.ts'))).toBe(true);

    fs.symlinkSync(path.join(ROOT, 'node_modules', '@types'), path.join(dir, 'node_modules', '@types'));
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'undici'), path.join(dir, 'node_modules', 'undici'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'integrator', type: 'module' }));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          outDir: '.',
        },
        files: ['main.ts'],
      }),
    );
    fs.writeFileSync(path.join(dir, 'main.ts'), INTEGRATOR);
    await run(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')]).catch((err: { stdout?: string }) => {
      throw new Error(`the integrator's project did not compile:\n${err.stdout ?? String(err)}`);
    });

    const d = await makeDesk(store.db);
    const { stdout } = await run(process.execPath, [path.join(dir, 'main.js')], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', DESK_URL: served.baseUrl, DESK_KEY: d.key },
    });
    expect(JSON.parse(stdout)).toEqual({
      checked: d.desk.id,
      desk: d.desk.id,
      open: 0,
      code: 'not_found',
      undici: d.desk.id,
    });
    // Two whole compiles: on a busy machine they take longer than the suite's usual limit.
  }, 120_000);
});
