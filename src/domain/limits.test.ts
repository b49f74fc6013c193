import { describe, expect, it } from 'vitest';
import { DeskError } from './errors.ts';
import { detailWithNote, TEXT_MAX, withinLimit } from './limits.ts';

describe("the lengths of a row's text", () => {
  it('counts an emoji as one character', () => {
    const title = '😀'.repeat(TEXT_MAX.title);
    expect(withinLimit('title', title)).toBe(title);
    expect(() => withinLimit('title', `${title}x`)).toThrow(
      new DeskError('bad_request', 'A title is at most 500 characters.', { field: 'title' }),
    );
    expect(detailWithNote('😀'.repeat(TEXT_MAX.detail - 4), 'ok')).toHaveLength(2 * (TEXT_MAX.detail - 4) + 4);
  });

  it("closes a note's direction before it joins the detail, and counts it so", () => {
    const detail = 'd'.repeat(TEXT_MAX.detail - 11);
    expect(detailWithNote(detail, '\u202eabcdefg')).toBe(`${detail}\n\n\u202eabcdefg\u202c`);
    // Nine characters typed fill the detail; kept, with the override closed, they are one too many.
    expect(() => detailWithNote(detail, '\u202eabcdefgh')).toThrow(/over the 20,000 it holds/);
  });

  it('holds the text to its limit as it is kept, with the direction it opens closed', () => {
    const fits = `\u202e${'a'.repeat(TEXT_MAX.title - 2)}`;
    expect(withinLimit('title', fits)).toBe(`${fits}\u202c`);
    expect(withinLimit('title', `${fits}\u202c`)).toBe(`${fits}\u202c`);
    expect(() => withinLimit('title', `${fits}a`)).toThrow('A title is at most 500 characters.');
  });

  it('lets a row wait on any address a message can go to, as a send records it', () => {
    const address = `${'a'.repeat(TEXT_MAX.contact_email - 7)}@x.test`;
    expect(withinLimit('waiting_on', address)).toBe(address);
  });
});
