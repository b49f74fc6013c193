import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import openapiTS, { astToString } from 'openapi-typescript';
import { CLIENT_TYPES_FILE, clientTypesSource, liveDescription } from '../../../scripts/client-types.ts';

// The client's types are the server's description: a route whose schema changes without the
// types being regenerated fails here.

describe('desk-client types', () => {
  it('match what the current server describes', async () => {
    const committed = fs.readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const current = await clientTypesSource();
    expect(
      committed === current,
      "clients/typescript/src/generated/desk-api.ts is out of date with the server's /api/v1/openapi.json: run `npm run client:types` and commit the result",
    ).toBe(true);
  });

  it("would differ if a route's schema changed", async () => {
    const doc = await liveDescription();
    const before = astToString(await openapiTS(doc, { silent: true }));
    const me = doc.paths?.['/me'];
    if (!me || '$ref' in me) throw new Error('GET /me is missing from the description');
    const op = me.get;
    const answer = op && !('$ref' in op) ? op.responses?.['200'] : undefined;
    if (!answer || !('content' in answer) || !answer.content) throw new Error('GET /me has no 200 answer to change');
    answer.content['application/json'] = {
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'object', properties: { renamed: { type: 'string' } } } },
      },
    };
    expect(astToString(await openapiTS(doc, { silent: true }))).not.toBe(before);
  });
});
