import { describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart } from './multipart.ts';

const B = '----form7MA4YWxkTrZu0gW';
const body = (parts: string[]) => Buffer.from(`${parts.map((p) => `--${B}\r\n${p}\r\n`).join('')}--${B}--\r\n`);

describe('a multipart form', () => {
  it('reads text fields and a file as text, line breaks and all', () => {
    const fields = parseMultipart(
      body([
        'Content-Disposition: form-data; name="_csrf"\r\n\r\ntok',
        'Content-Disposition: form-data; name="file"; filename="desk.yaml"\r\nContent-Type: application/yaml\r\n\r\ndesk:\r\n  name: Café\n',
        'Content-Disposition: form-data; name="text"\r\n\r\n',
      ]),
      B,
    );
    expect(fields).toEqual({
      _csrf: 'tok',
      file: 'desk:\r\n  name: Café\n',
      'file:filename': 'desk.yaml',
      text: '',
    });
  });

  it('finds the boundary, quoted or not', () => {
    expect(boundaryOf(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(boundaryOf(`multipart/form-data; boundary="${B}"; charset=utf-8`)).toBe(B);
    expect(boundaryOf('multipart/form-data')).toBeNull();
  });

  it('refuses a body cut short or not starting at the boundary', () => {
    const whole = body(['Content-Disposition: form-data; name="a"\r\n\r\n1']);
    expect(parseMultipart(whole.subarray(0, whole.length - 12), B)).toBeNull();
    expect(parseMultipart(Buffer.concat([Buffer.from('x'), whole]), B)).toBeNull();
    expect(parseMultipart(body(['Content-Type: text/plain\r\n\r\n1']), B)).toBeNull();
  });
});
