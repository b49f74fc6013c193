import { describe, expect, it } from 'vitest';
import { screenAddress } from './paths.ts';

describe('a screen address that is not valid URL text', () => {
  it('has its % signs taken as themselves, the query kept as it came', () => {
    expect(screenAddress('/work/%ZZ')).toBe('/work/%25ZZ');
    expect(screenAddress('/%ff?x=%ff')).toBe('/%25ff?x=%ff');
    expect(screenAddress('/work/%e2%82/snooze')).toBe('/work/%25e2%2582/snooze');
  });

  it('is left alone when valid, and under /api whatever it is', () => {
    for (const url of ['/', '/work/7', '/work/caf%C3%A9', '/api/v1/work/%ff', '/api/%ZZ', '/record?x=%ff'])
      expect(screenAddress(url)).toBe(url);
  });
});
