import { describe, expect, it } from 'vitest';
import type { DeskSection } from '../contract/shared.ts';
import { OTHER_KINDS_ID, otherKinds } from './sections.ts';

const block = (id: string, kinds: string[]): DeskSection => ({
  id,
  title: id,
  blurb: id,
  kind: 'work',
  kinds,
  unit: null,
  fields: [],
  why: id,
});

describe('the block of kinds no work block collects', () => {
  it('holds only the open kinds the desk blocks leave out, in their order', () => {
    const other = otherKinds([block('obligations', ['filing', 'licence_renewal'])], ['filing', 'general', 'repair']);
    expect(other).toMatchObject({ id: OTHER_KINDS_ID, kind: 'work', kinds: ['general', 'repair'], unit: null });
  });

  it('is not there when every open kind is collected, or nothing is open', () => {
    expect(otherKinds([block('obligations', ['filing'])], ['filing'])).toBeNull();
    expect(otherKinds([], [])).toBeNull();
  });

  it('takes an id no stored block has', () => {
    const stored = [block(OTHER_KINDS_ID, []), block(`${OTHER_KINDS_ID}-2`, ['filing'])];
    expect(otherKinds(stored, ['general'])?.id).toBe(`${OTHER_KINDS_ID}-3`);
  });
});
