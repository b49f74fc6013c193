import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWhole } from './read-file.ts';

describe('reading a file whole', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'desk-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file to its end, and refuses one over the limit, or a device that never ends, at the limit', async () => {
    const file = path.join(dir, 'small.yaml');
    writeFileSync(file, 'x'.repeat(1000));
    expect((await readWhole(file, 1000)).length).toBe(1000);
    await expect(readWhole(file, 999)).rejects.toThrow(
      `${file} is over 999 bytes, more than a business file holds; check it is the file you meant.`,
    );
    await expect(readWhole('/dev/zero', 1024 * 1024)).rejects.toThrow(
      '/dev/zero is over 1 MB, more than a business file holds; check it is the file you meant.',
    );
  });

  it('says plainly when there is no such file, or it is a folder', async () => {
    await expect(readWhole(path.join(dir, 'nope.yaml'))).rejects.toThrow(`Cannot read ${dir}/nope.yaml: no such file.`);
    await expect(readWhole(dir)).rejects.toThrow(`Cannot read ${dir}: it is a folder, not a file.`);
  });
});
