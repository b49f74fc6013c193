import { describe, expect, it } from 'vitest';
import { masker, secretValues } from './playbooks.ts';

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
});
