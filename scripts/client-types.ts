import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { harness } from '../test/helpers/app.ts';
import { sqliteStore } from '../test/helpers/db.ts';

// The desk-client package's types come from the server's own live description, never from a
// copy: this builds the app in-process, reads /api/v1/openapi.json as a client would, and turns
// it into TypeScript. `npm run client:types` writes the file; a test compares it with the
// committed one, so the client cannot drift from the server.

export const CLIENT_TYPES_FILE = fileURLToPath(
  new URL('../clients/typescript/src/generated/desk-api.ts', import.meta.url),
);

const HEADER = `// Generated from the Desk server's /api/v1/openapi.json by \`npm run client:types\`. Do not edit by hand.\n\n`;

export async function liveDescription(): Promise<OpenAPI3> {
  const store = await sqliteStore();
  try {
    const h = await harness(store);
    try {
      const res = await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}`);
      return res.json() as OpenAPI3;
    } finally {
      await h.close();
    }
  } finally {
    await store.close();
  }
}

export async function clientTypesSource(): Promise<string> {
  const ast = await openapiTS(await liveDescription(), { silent: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const source = await clientTypesSource();
  fs.mkdirSync(path.dirname(CLIENT_TYPES_FILE), { recursive: true });
  fs.writeFileSync(CLIENT_TYPES_FILE, source);
  console.log(`wrote ${path.relative(process.cwd(), CLIENT_TYPES_FILE)}`);
}
