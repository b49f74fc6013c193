import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { DeskError } from '../errors.ts';
import { jsonFault, MAX_LEVELS } from './json.ts';
import { parseBusinessText } from './read.ts';
import { readYaml } from './yaml.ts';

// A business file's nesting has one limit whichever way it is written: the YAML reader's. A
// file read as JSON is written out by export as YAML, which must read back.

const nested = (n: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < n; i++) v = [v];
  return v;
};
const file = (n: number) => ({
  desk: { name: 'Deep Cafe', slug: 'deep' },
  connections: [{ config: { a: nested(n) } }],
});

/** The most lists a connection's config can hold one inside another and still be read as JSON. */
function deepest(): number {
  let n = 0;
  while (jsonFault(JSON.stringify(file(n + 1))) === null) n++;
  return n;
}

describe('nesting in a business file', () => {
  it('is taken as JSON as deep as YAML reads it, and no deeper', () => {
    const n = deepest();
    // desk file, connections list, the entry, its config: four levels above the lists.
    expect(n).toBe(MAX_LEVELS - 5);
    expect('value' in readYaml(dump(file(n)))).toBe(true);
    expect(readYaml(dump(file(n + 1)))).toHaveProperty('fault');
  });

  it('is refused past the limit with its line and column, not a crash, however deep', () => {
    // Written out by hand: JSON.stringify itself gives up long before 50,000 levels.
    const text = (n: number) =>
      `{"desk": {"name": "Deep Cafe", "slug": "deep"}, "connections": [{"config": {"a": ${'['.repeat(n)}"x"${']'.repeat(n)}}}]}`;
    expect(JSON.parse(text(3))).toEqual(file(3));
    for (const n of [deepest() + 1, 50_000]) {
      let thrown: unknown;
      try {
        parseBusinessText(text(n), 'deep.json');
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(DeskError);
      expect((thrown as DeskError).message).toMatch(
        /^deep\.json is not JSON: line 1, column \d+: nesting deeper than 99 levels, the most a business file may have\./,
      );
    }
  });
});
