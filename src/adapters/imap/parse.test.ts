import { describe, expect, it } from 'vitest';
import { parseMail } from './parse.ts';

describe('a raw message read for the desk', () => {
  it('loses NUL characters from its subject and text, so either database can store it', async () => {
    const raw = Buffer.from(
      [
        'From: Sam Lee <sam@acme.test>',
        'To: desk@shop.test',
        'Subject: =?UTF-8?B?UmU6IGxlYXNlAA==?=',
        'Message-ID: <r1@acme.test>',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Signed\u0000 and sent back.',
        '',
      ].join('\r\n'),
    );
    const mail = await parseMail(raw, false);
    expect(mail).toMatchObject({ subject: 'Re: lease', text: 'Signed and sent back.', fromAddress: 'sam@acme.test' });
  });
});
