import { describe, expect, it } from 'vitest';
import { jsx } from './jsx-runtime.ts';

// P-screen-18: text holding right-to-left writing is set apart on the page, so that it keeps
// the words and numbers beside it in their order.

const RENT = '\u0625\u064A\u062C\u0627\u0631 \u0627\u0644\u0645\u062D\u0644'; // "the shop's rent"
const SAM = '\u0633\u0627\u0645';

describe("the screen's text, right to left", () => {
  it("sets the owner's right-to-left text apart, in its own direction", () => {
    expect(jsx('li', { children: [RENT, ': 1,250.50 GBP'] }).html).toBe(`<li><bdi>${RENT}</bdi>: 1,250.50 GBP</li>`);
    // Escaped as any text is, and still the owner's own: "&amp;" is no Latin word.
    expect(jsx('td', { children: `${RENT} & 12 < 13` }).html).toBe(`<td><bdi>${RENT} &amp; 12 &lt; 13</bdi></td>`);
  });

  it("leaves a sentence of the desk's that quotes it flowing with the page, its words in their order", () => {
    for (const said of [`${SAM} for 12 days`, `No notes on ${RENT} yet.`, `2027-01-13, for ${RENT}: licence_end `])
      expect(jsx('p', { children: said }).html).toBe(`<p>${said}</p>`);
  });

  it('leaves text alone where it is all an element holds, and text with no right-to-left writing', () => {
    for (const tag of ['textarea', 'option', 'title'])
      expect(jsx(tag, { children: RENT }).html).toBe(`<${tag}>${RENT}</${tag}>`);
    expect(jsx('p', { children: 'Paid in full.' }).html).toBe('<p>Paid in full.</p>');
  });
});
