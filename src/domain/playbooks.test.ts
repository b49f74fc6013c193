import { describe, expect, it } from 'vitest';
import { secretValues } from './playbooks.ts';
import { masker } from './mask.ts';

describe('masking secrets in what a run reports', () => {
  it('a short secret is masked where it stands whole, never inside other words', () => {
    const mask = masker(secretValues({ secret: { username: 'u', password: 'p' } }));
    expect(mask('The run of File VAT return ran out of time.')).toBe('The run of File VAT return ran out of time.');
    expect(mask('fill #user with u')).toBe('fill #user with ***');
    expect(mask('fill #pass with "p"')).toBe('fill #pass with "***"');
    expect(mask('Signed in as u.')).toBe('Signed in as ***.');
  });

  it('a long secret is masked wherever it appears, even inside other text', () => {
    const mask = masker(secretValues({ secret: { password: 's3cret-pw' } }));
    expect(mask('page said: wrong password s3cret-pwX for bakery')).toBe('page said: wrong password ***X for bakery');
  });

  it('a secret holding regular-expression characters is masked as written', () => {
    const mask = masker(['a+b', '(x)']);
    expect(mask('a+b and (x) but not aab')).toBe('*** and *** but not aab');
  });

  it('a secret given back as a URL, a form, HTML or JSON writes it is masked too', () => {
    const mask = masker(secretValues({ secret: { password: 'p@ss word&1"<', pin: '4321' } }));
    expect(mask('u=bakery&p=p%40ss%20word%261%22%3C')).toBe('u=bakery&p=***');
    expect(mask('u=bakery&p=p%40ss+word%261%22%3C')).toBe('u=bakery&p=***');
    expect(mask('<b>p@ss word&amp;1&quot;&lt;</b>')).toBe('<b>***</b>');
    expect(mask('{"p":"p@ss word&1\\"<"}')).toBe('{"p":"***"}');
    // A short one beside a URL's escapes, as a query string echoed back carries it.
    expect(mask('u%3Dbakery%26p%3D4321%26x')).toBe('u%3Dbakery%26p%3D***%26x');
    expect(mask('order 143210 and 4321')).toBe('order 143210 and ***');
  });

  it("a secret with spaces is masked as a page's text lays them out: several as one, non-breaking, trimmed", () => {
    const mask = masker(['correct  horse  battery', ' padded pw ']);
    expect(mask('You typed: correct horse battery.')).toBe('You typed: ***.');
    expect(mask('You typed: correct\u00a0horse\u00a0\u00a0battery')).toBe('You typed: ***');
    expect(mask('You typed: correct  horse  battery')).toBe('You typed: ***');
    expect(mask('You typed: "padded pw".')).toBe('You typed: "***".');
    expect(mask('correcthorsebattery')).toBe('correcthorsebattery');
    // Spaces alone are matched as written, not as any text at all.
    expect(masker(['   '])('a b: :   :c')).toBe('a b: :***:c');
  });
});
