import { describe, expect, it } from 'vitest';
import { answeredSubject, baseSubject, bounceOf, isAutomatic, isReplySubject, namedIds } from './classify.ts';

// What a message in the mailbox is, from its headers: tables.

describe('automatic answers', () => {
  const cases: Array<[string, Record<string, string>, string, boolean]> = [
    ['Auto-Submitted: auto-replied', { 'auto-submitted': 'auto-replied' }, 'Re: Quote', true],
    ['Auto-Submitted: auto-generated', { 'auto-submitted': 'auto-generated' }, 'Quote', true],
    ['Auto-Submitted: no is a person', { 'auto-submitted': 'no' }, 'Re: Quote', false],
    ['Auto-Submitted: no, with a comment', { 'auto-submitted': 'no (written by a person)' }, 'Re: Quote', false],
    ['Auto-Submitted: NO in capitals', { 'auto-submitted': 'NO' }, 'Re: Quote', false],
    [
      'Auto-Submitted: no, with comments inside a comment',
      { 'auto-submitted': 'no (written (by hand) by Pat)' },
      'Re: Quote',
      false,
    ],
    [
      'Auto-Submitted: auto-replied, with comments inside a comment',
      { 'auto-submitted': '(sent (by (the) server)) auto-replied' },
      'Re: Quote',
      true,
    ],
    [
      'Auto-Submitted: auto-replied, with a parameter',
      { 'auto-submitted': 'auto-replied; owner-email="sam@ovens.test"' },
      'Re: Quote',
      true,
    ],
    ['X-Autoreply', { 'x-autoreply': 'yes' }, 'Re: Quote', true],
    ['Precedence: auto_reply', { precedence: 'auto_reply' }, 'Re: Quote', true],
    ['Precedence: bulk alone is not', { precedence: 'bulk' }, 'Re: Quote', false],
    [
      'Exchange OOF',
      { 'auto-submitted': 'auto-generated', 'x-auto-response-suppress': 'All' },
      'Automatic reply: Quote',
      true,
    ],
    [
      "a person's reply from a helpdesk that asks for no auto-replies",
      { 'x-auto-response-suppress': 'All' },
      'Re: Quote',
      false,
    ],
    ["a person's reply carrying the list form", { 'x-auto-response-suppress': 'OOF, DR, RN, NRN' }, 'Re: Quote', false],
    ['an out-of-office subject', {}, 'Out of Office: Quote', true],
    ['an Automatic reply subject', {}, 'Automatic reply: Quote', true],
    ['a Notes AUTO: subject', {}, 'AUTO: Alex Acct is out of the office (returning 02/12/2026)', true],
    ['a person writing about autos', {}, 'Re: Autos for the delivery run', false],
    ['a person', {}, 'Re: Quote', false],
    ['a person answering about cover', {}, 'Re: Out of office cover for December', false],
    ['a person answering about the mailbox', {}, 'AW: Automatic reply for the shop mailbox', false],
    ["Outlook's German auto-reply subject", {}, 'Automatische Antwort: Quote', true],
    ["Outlook's French auto-reply subject", {}, 'Réponse automatique : Quote', true],
    ["Outlook's Spanish auto-reply subject", {}, 'Respuesta automática: Quote', true],
    ["Outlook's Dutch auto-reply subject", {}, 'Automatisch antwoord: Quote', true],
    ['a person answering in German about the auto-reply', {}, 'AW: Automatische Antwort im Postfach', false],
  ];
  it.each(cases)('%s', (_name, headers, subject, expected) => {
    expect(isAutomatic({ headers, subject })).toBe(expected);
  });
});

describe('the subject a message answers', () => {
  const cases: Array<[string, Record<string, string>, string, string | null]> = [
    ['a reply', {}, 'Re: Quote', 'Re: Quote'],
    ["Outlook's automatic reply, not threaded", {}, 'Automatic reply: Quote', 'Quote'],
    ['an automatic reply to a reply', {}, 'Automatic reply: RE: Quote', 'RE: Quote'],
    ["Outlook's French one", {}, 'Réponse automatique : Quote', 'Quote'],
    ['an out-of-office prefix', {}, 'Out of Office: Quote', 'Quote'],
    ["older Exchange's", { 'auto-submitted': 'auto-generated' }, 'Out of Office AutoReply: Quote', 'Quote'],
    ["older Exchange's, without its headers", {}, 'Out of Office Auto-Reply: Quote', 'Quote'],
    ['marked by its headers, answering with Re:', { 'auto-submitted': 'auto-replied' }, 'Re: Quote', 'Re: Quote'],
    [
      'a Notes notice, which names no subject',
      {},
      'AUTO: Alex Acct is out of the office',
      'Alex Acct is out of the office',
    ],
    ['an automatic answer with its own subject alone', { 'auto-submitted': 'auto-replied' }, 'Away until May', null],
    ['a prefix with nothing after it', {}, 'Automatic reply:', null],
    ['a new message from a person', {}, 'Quote', null],
    ['a person writing about automatic replies', {}, 'Automatic replies for the shop', null],
  ];
  it.each(cases)('%s', (_name, headers, subject, expected) => {
    expect(answeredSubject({ headers, subject })).toBe(expected);
  });
});

describe('bounces', () => {
  const report = 'multipart/report; report-type=delivery-status; boundary="x"';
  const status =
    'Reporting-MTA: dns; mx\n\nFinal-Recipient: rfc822; sam@ovens.test\nAction: failed\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1\n  user unknown\n';
  it("reads the recipient, the server's words and the returned Message-ID", () => {
    expect(
      bounceOf({
        headers: { 'content-type': report },
        deliveryStatus: status,
        returnedHeaders: 'Subject: x\nMessage-ID: <a.desk@bakery.test>',
      }),
    ).toEqual({ recipient: 'sam@ovens.test', reason: '550 5.1.1 user unknown', messageId: '<a.desk@bakery.test>' });
  });
  it('reads a report for a message sent with international addresses (RFC 6533) the same way', () => {
    expect(
      bounceOf({
        headers: { 'content-type': 'multipart/report; report-type=global-delivery-status; boundary="x"' },
        deliveryStatus: status,
        returnedHeaders: 'Message-ID: <a.desk@bakery.test>',
      }),
    ).toEqual({ recipient: 'sam@ovens.test', reason: '550 5.1.1 user unknown', messageId: '<a.desk@bakery.test>' });
  });
  it('is not a bounce when the report says delayed', () => {
    expect(
      bounceOf({
        headers: { 'content-type': report },
        deliveryStatus: status.replace('failed', 'delayed'),
        returnedHeaders: null,
      }),
    ).toBeNull();
  });
  it('reads the block of the recipient that failed, when another was reached', () => {
    const forwarded =
      'Reporting-MTA: dns; mx\n\nOriginal-Recipient: rfc822; sam@ovens.test\nFinal-Recipient: rfc822; sam.home@ovens.test\nAction: delivered\nStatus: 2.0.0\n\nFinal-Recipient: rfc822; sam.old@ovens.test\nAction: failed\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 user unknown\n';
    expect(
      bounceOf({
        headers: { 'content-type': report },
        deliveryStatus: forwarded,
        returnedHeaders: 'Message-ID: <a.desk@bakery.test>',
      }),
    ).toEqual({ recipient: 'sam.old@ovens.test', reason: '550 5.1.1 user unknown', messageId: '<a.desk@bakery.test>' });
    expect(
      bounceOf({
        headers: { 'content-type': report },
        deliveryStatus: forwarded.replace('Action: failed', 'Action: delayed'),
        returnedHeaders: null,
      }),
    ).toBeNull();
  });
  it('is not a bounce without a delivery-status report', () => {
    expect(
      bounceOf({ headers: { 'content-type': 'multipart/mixed' }, deliveryStatus: status, returnedHeaders: null }),
    ).toBeNull();
    expect(
      bounceOf({
        headers: { 'content-type': 'multipart/report; report-type=disposition-notification' },
        deliveryStatus: null,
        returnedHeaders: null,
      }),
    ).toBeNull();
  });
});

describe('subjects and threading', () => {
  it.each([
    ['Re: Quote', 'quote'],
    ['RE: re:  Quote  please', 'quote please'],
    ['Fwd: Re: Quote', 'quote'],
    ['AW: Quote', 'quote'],
    ['Quote', 'quote'],
    ['RE: [EXTERNAL] About: Quote', 'about: quote'],
    ['[EXT] Re: [EXTERNAL] Quote', 'quote'],
    ['RE: [CAUTION: External] Quote', 'quote'],
    ['Re: [Invoice 42] Quote', '[invoice 42] quote'],
  ])('%s compares as %s', (subject, base) => {
    expect(baseSubject(subject)).toBe(base);
  });
  it('a reply subject starts with Re:, after any tag a mail system put before it', () => {
    expect(isReplySubject('[EXTERNAL] RE: About: Quote')).toBe(true);
    expect(isReplySubject('[EXTERNAL] About: Quote')).toBe(false);
    expect(isReplySubject('Re: Quote')).toBe(true);
    expect(isReplySubject('Quote re: oven')).toBe(false);
    expect(isReplySubject('Fwd: Quote')).toBe(false);
  });
  it('In-Reply-To comes first, then References newest first, each once', () => {
    expect(namedIds({ inReplyTo: '<b@x>', references: ['<a@x>', '<b@x>', 'junk', '<c@x>'] })).toEqual([
      '<b@x>',
      '<c@x>',
      '<a@x>',
    ]);
  });
  it('a long thread keeps its 49 newest references and its root', () => {
    const thread = Array.from({ length: 61 }, (_, i) => `<m${i}@x>`);
    const ids = namedIds({ inReplyTo: '<m60@x>', references: [thread.join(' ')] });
    expect(ids).toHaveLength(50);
    expect(ids.slice(0, 49)).toEqual(thread.slice(12).reverse());
    expect(ids[49]).toBe('<m0@x>');
  });
});
