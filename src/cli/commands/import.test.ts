import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../../../test/helpers/db.ts';
import { desk } from '../../../test/helpers/cli.ts';

// How `desk import` tells the owner what is wrong with a file: every mistake in the order the
// file has it, one a line, and a slug already taken with the way round it. The file's relative
// dates are read against TEST_NOW (the `desk` helper sets DESK_NOW).

describe('desk import, refused', () => {
  let store: TestStore;
  let dir: string;
  const file = (name: string, lines: string[]) => {
    const at = path.join(dir, name);
    writeFileSync(at, `${lines.join('\n')}\n`);
    return at;
  };

  beforeAll(async () => {
    store = await sqliteStore();
    dir = mkdtempSync(path.join(os.tmpdir(), 'desk-import-'));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the errors in the file's order: section by section as written, entry by entry, field by field", async () => {
    const bad = file('bad.yaml', [
      'desk: { name: Broken, slug: broken-desk }',
      'work:',
      '  - { title: A, arrangement: nowhere }',
      '  - { title: "", due: next week }',
      'units:',
      '  - { ref: oven, type: equipment, name: Oven, arrangement: lease, colour: red }',
      'grants: [money]',
    ]);
    const r = await desk(store.target, 'import', bad);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toEqual([
      'desk: The business file has 6 errors; nothing was written:',
      '  work[0] "A".arrangement: no arrangement has ref "nowhere"',
      '  work[1].title: must not be empty',
      '  work[1].due: "next week" is not a date (YYYY-MM-DD, today, +3d or -12d)',
      '  units[0] "oven".arrangement: no arrangement has ref "lease"',
      '  units[0] "oven".colour: unknown field; the fields are ref, type, name, fields, arrangement',
      '  grants[0]: "money" cannot be granted: paying money always needs a person',
      '',
    ]);
  });

  it('lists a single error as it lists several, under the summary', async () => {
    const r = await desk(store.target, 'import', file('one.yaml', ['desk: { name: No Slug }']));
    expect(r).toMatchObject({
      code: 1,
      out: '',
      err: 'desk: The business file has 1 error; nothing was written:\n  desk.slug: is required\n',
    });
    // For programs, the error is the API's, as before.
    expect((await desk(store.target, 'import', path.join(dir, 'one.yaml'), '--json')).json()).toEqual({
      error: {
        code: 'bad_request',
        message: 'The business file has 1 error; nothing was written. desk.slug: is required',
        details: { errors: ['desk.slug: is required'] },
      },
    });
  });

  it('answers with the id of every ref, whatever its name', async () => {
    const named = file('refs.yaml', [
      'desk: { name: Ref Shop, slug: ref-shop }',
      'units:',
      '  - { ref: __proto__, type: site, name: One }',
      '  - { ref: constructor, type: site, name: Two }',
    ]);
    const r = await desk(store.target, 'import', named, '--json');
    expect(r.code).toBe(0);
    expect(Object.keys(r.json().refs).sort()).toEqual(['__proto__', 'constructor']);
  });

  it('says how to import a file whose slug is taken under another, and --slug does it', async () => {
    const cafe = file('cafe.yaml', ['desk: { name: Quay Cafe, slug: quay-cafe }']);
    expect((await desk(store.target, 'import', cafe)).code).toBe(0);
    const again = await desk(store.target, 'import', cafe);
    expect(again).toMatchObject({
      code: 1,
      out: '',
      err: 'desk: A desk with slug "quay-cafe" already exists. `desk import FILE --slug NEW-SLUG` imports the file under another slug.\n',
    });
    const copy = await desk(store.target, 'import', cafe, '--slug', 'quay-cafe-2', '--json');
    expect(copy.code).toBe(0);
    expect(copy.json().desk.slug).toBe('quay-cafe-2');
  });

  it('refuses a key name it could not give before reading the file, which it never opens', async () => {
    const missing = path.join(dir, 'not-there.yaml');
    const long = await desk(store.target, 'import', missing, '--key', 'k'.repeat(201));
    expect(long).toMatchObject({ code: 1, out: '' });
    expect(long.err).toContain("--key: A key's name is at most 200 characters.");
    expect(long.err).not.toContain('not-there');
    const blank = await desk(store.target, 'import', missing, '--key', ' ');
    expect(blank).toMatchObject({ code: 1, out: '' });
    expect(blank.err).toContain('--key needs a name, such as --key zapier.');
  });
});
