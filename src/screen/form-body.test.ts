import { describe, expect, it } from 'vitest';
import { readForm } from './form-body.ts';

const asBrowserSends = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('readForm', () => {
  it('reads a form as URLSearchParams does', () => {
    for (const body of [
      'title=Sweep+the+yard&note=a%20b%0D%0Ac',
      'a=1&a=2&&b&c=',
      'pct=100%&odd=%zz%4&name=caf%C3%A9%20%F0%9F%98%80',
      'bom=%EF%BB%BFx&spaces=+%20+',
      '',
    ])
      expect(readForm(Buffer.from(body)), body).toEqual(asBrowserSends(body));
  });

  it('keeps text sent unescaped, as UTF-8', () => {
    expect(readForm(Buffer.from('title=café 😀'))).toEqual({ title: 'café 😀' });
  });

  it('refuses a form whose escaped bytes are not UTF-8, where URLSearchParams would read U+FFFD', () => {
    for (const body of ['title=%FF', 'title=%C3', 'title=%ED%A0%80', '%FF=x', 'ok=1&title=ab%C3%28'])
      expect(readForm(Buffer.from(body)), body).toBeNull();
  });

  it('refuses a form whose own bytes are not UTF-8', () => {
    expect(readForm(Buffer.concat([Buffer.from('title='), Buffer.from([0xff, 0xfe])]))).toBeNull();
  });
});
