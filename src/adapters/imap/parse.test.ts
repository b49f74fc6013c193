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

  const headers = (type: string) => [
    'From: Mill Co <accounts@mill.test>',
    'To: desk@shop.test',
    'Subject: Re: Prices',
    'Message-ID: <r2@mill.test>',
    'MIME-Version: 1.0',
    `Content-Type: ${type}`,
    '',
  ];
  const htmlPart = [
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>New prices from <b>January</b>: see the list.</p>',
  ];

  it('reads HTML as text when it is alone in a message with an attachment', async () => {
    const raw = Buffer.from(
      [
        ...headers('multipart/mixed; boundary="b1"'),
        '--b1',
        ...htmlPart,
        '--b1',
        'Content-Type: application/pdf; name="prices.pdf"',
        'Content-Disposition: attachment; filename="prices.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        'JVBERi0xLjQK',
        '--b1--',
        '',
      ].join('\r\n'),
    );
    const mail = await parseMail(raw, false);
    expect(mail?.text).toBe('New prices from January: see the list.');
    expect(mail?.attachments).toEqual([{ name: 'prices.pdf', size: 9 }]);
  });

  it('reads HTML as text when it is the only part of an alternative', async () => {
    const raw = Buffer.from(
      [...headers('multipart/alternative; boundary="b2"'), '--b2', ...htmlPart, '--b2--', ''].join('\r\n'),
    );
    expect((await parseMail(raw, false))?.text).toBe('New prices from January: see the list.');
  });

  it("reads an HTML message's table cells apart, so a price does not run into its label", async () => {
    const raw = Buffer.from(
      [
        ...headers('text/html; charset=utf-8'),
        '',
        '<p>Our quote:</p><table><tr><td>Price</td><td>40 EUR</td></tr><tr><td>VAT</td><td>8 EUR</td></tr></table>',
        '',
      ].join('\r\n'),
    );
    expect((await parseMail(raw, false))?.text).toBe('Our quote:\n\nPrice\n\n40 EUR\n\nVAT\n\n8 EUR');
  });

  it("reads an HTML message's images as their words, never their sources", async () => {
    const pasted = `data:image/png;base64,${'QUJD'.repeat(400_000)}`;
    const raw = Buffer.from(
      [
        ...headers('text/html; charset=utf-8'),
        '',
        // A pasted picture travels inside the HTML; a signature's logo is a part of the message.
        `<p><img src="${pasted}"></p><p>Yes, Friday.</p><p>Sam<br><img src="cid:image001.png@01DB" alt="Ovens Ltd"></p>`,
        '',
      ].join('\r\n'),
    );
    expect((await parseMail(raw, false))?.text).toBe('Yes, Friday.\n\nSam\nOvens Ltd');
  });

  it("lists an e-mail attached to a person's message, which only a report carries back", async () => {
    const raw = Buffer.from(
      [
        ...headers('multipart/mixed; boundary="b5"'),
        '--b5',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'The supplier quote is attached.',
        '--b5',
        'Content-Type: message/rfc822',
        'Content-Disposition: attachment; filename="Supplier quote.eml"',
        '',
        'From: Supplier <sales@supplier.test>',
        'Subject: Quote',
        'Message-ID: <q1@supplier.test>',
        '',
        '240 GBP.',
        '--b5--',
        '',
      ].join('\r\n'),
    );
    const mail = await parseMail(raw, false);
    expect(mail?.text).toBe('The supplier quote is attached.');
    expect(mail?.attachments.map((a) => a.name)).toEqual(['Supplier quote.eml']);
    expect(mail?.returnedHeaders).toBeNull();
  });

  it('keeps the text of a message in parts that names no boundary, or one it never has, decoded, and HTML as text', async () => {
    const said = 'Yes, 240 GBP, delivered Tuesday.';
    const read = async (type: string, body: string, encoding?: string) =>
      (
        await parseMail(
          Buffer.from(
            [
              ...headers(type).slice(0, -1),
              ...(encoding ? [`Content-Transfer-Encoding: ${encoding}`] : []),
              '',
              body,
              '',
            ].join('\r\n'),
          ),
          false,
        )
      )?.text;
    expect(await read('multipart/alternative', said)).toBe(said);
    expect(await read('multipart/mixed', Buffer.from(said).toString('base64'), 'base64')).toBe(said);
    expect(await read('multipart/alternative', 'Caf=C3=A9: 240 =E2=82=AC.', 'quoted-printable')).toBe('Café: 240 €.');
    expect(await read('multipart/alternative', '<p>Yes, <b>240</b> GBP</p>')).toBe('Yes, 240 GBP');
    // A boundary named that the body never has is no boundary either.
    expect(await read('multipart/mixed; boundary="XYZ"', said)).toBe(said);
  });

  it('reads a report that names no boundary between its parts as the report it is, its action kept', async () => {
    const mail = await parseMail(
      Buffer.from(
        [
          'From: Mail Delivery System <MAILER-DAEMON@mx.bakery.test>',
          'Subject: Delayed Mail (still being retried)',
          'Message-ID: <delay1@mx.bakery.test>',
          'MIME-Version: 1.0',
          'Content-Type: multipart/report; report-type=delivery-status',
          '',
          '--RB34',
          'Content-Type: message/delivery-status',
          '',
          'Final-Recipient: rfc822; kim@sink.test',
          'Action: delayed',
          'Status: 4.4.7',
          '',
        ].join('\r\n'),
      ),
      false,
    );
    expect(mail?.deliveryStatus).toContain('Action: delayed');
  });

  it('reads back the message a report returns whole with international addresses (message/global)', async () => {
    const mail = await parseMail(
      Buffer.from(
        [
          'From: Mail Delivery System <MAILER-DAEMON@mx.bakery.test>',
          'To: desk@shop.test',
          'Subject: Undelivered Mail Returned to Sender',
          'Message-ID: <bounce9@mx.bakery.test>',
          'MIME-Version: 1.0',
          'Content-Type: multipart/report; report-type=global-delivery-status; boundary="g1"',
          '',
          '--g1',
          'Content-Type: text/plain; charset=utf-8',
          '',
          'Your message could not be delivered.',
          '--g1',
          'Content-Type: message/global-delivery-status',
          '',
          'Final-Recipient: utf-8; søren@ovens.test',
          'Action: failed',
          'Status: 5.1.1',
          '',
          '--g1',
          'Content-Type: message/global',
          '',
          'From: Shop <desk@shop.test>',
          'To: søren@ovens.test',
          'Subject: About: the oven',
          'Message-ID: <sent42@shop.test>',
          '',
          'Could you send the quote?',
          '--g1--',
          '',
        ].join('\r\n'),
      ),
      false,
    );
    expect(mail?.deliveryStatus).toContain('Action: failed');
    expect(mail?.returnedHeaders).toContain('Message-ID: <sent42@shop.test>');
    expect(mail?.attachments).toEqual([]);
  });
});
