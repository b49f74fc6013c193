import { describe, expect, it } from 'vitest';
import { fileErrors } from '../../../test/helpers/business-file.ts';
import { addDays, dateIn } from '../dates.ts';
import { MESSAGE_MAX } from '../limits.ts';
import { parseBusinessText, readBusiness } from './read.ts';

// Fields of a business file read by rules that live elsewhere: a watch's `every` by the
// watches' own rule, and an arrangement's money, whose two fields go together. No date here is
// relative, so the moment handed in is only the reader's today.

const NOW = new Date('2026-11-22T10:00:00.000Z');
const DESK = { name: 'Corner Bakery', slug: 'corner-bakery', currency: 'GBP' };

const errorsOf = (doc: unknown) => fileErrors(doc, NOW);

const watch = (every: unknown) => ({
  desk: DESK,
  watches: [
    { subject_type: 'site', field: 'lease_end', label: 'Lease', kind: 'lease_renewal', action: 'commit', every },
  ],
});

describe("a watch's every", () => {
  it.each([
    ['365', '365'],
    [365, '365'],
    ['30d', '30'],
    ['14 days', '14'],
    [' 7 day ', '7'],
    ['', null],
    [0, null],
    ['0d', null],
    [null, null],
  ])('%j is %j', (every, days) => {
    expect(readBusiness(watch(every), NOW).watches[0]!.every).toBe(days);
  });

  it.each(['never', 'yearly', '-5', '1.5', '123456', [1], { days: 1 }, true])(
    'refuses %j, naming the field',
    (every) => {
      expect(errorsOf(watch(every))).toEqual([
        `watches[0].every: ${JSON.stringify(every)} must be a number of days, such as "365" or "30d", or 0 for once`,
      ]);
    },
  );

  it('names a long refused value cut, inside its quotes', () => {
    expect(errorsOf(watch(`every ${'other '.repeat(40)}week`))).toEqual([
      `watches[0].every: "every ${'other '.repeat(8)}other…" must be a number of days, such as "365" or "30d", or 0 for once`,
    ]);
  });
});

describe("an arrangement's amount and currency", () => {
  const arrangement = (over: Record<string, unknown>) => ({
    desk: DESK,
    arrangements: [{ name: 'Lease', kind: 'lease', ...over }],
  });

  it('refuses a bad amount once, not again for the currency beside it', () => {
    for (const amount of [-5, 1.5, 'lots']) {
      const errors = errorsOf(arrangement({ amount_cents: amount, currency: 'GBP' }));
      expect(errors, String(amount)).toHaveLength(1);
      expect(errors[0]).toMatch(/^arrangements\[0\] "Lease"\.amount_cents: /);
    }
  });

  it('still refuses a currency with no amount at all', () => {
    expect(errorsOf(arrangement({ currency: 'GBP' }))).toEqual([
      'arrangements[0] "Lease".currency: is given without amount_cents; the two go together',
    ]);
  });
});

describe("domains' amounts", () => {
  const domains = (...amounts: number[]) => ({
    desk: DESK,
    domains: amounts.map((amount_cents, i) => ({ name: `d${i}.test`, registrar: 'R', amount_cents })),
  });

  it('may add up to the largest total given exactly, and no further', () => {
    const most = Number.MAX_SAFE_INTEGER;
    expect(errorsOf(domains(most - 100, 100))).toEqual([]);
    expect(errorsOf(domains(most, 100))).toEqual([
      `domains: amounts add up to 9007199254741091 minor units; together they may come to at most ${most}, the largest total given exactly`,
    ]);
  });
});

describe("a playbook's goto", () => {
  const playbook = (...gotos: string[]) => ({
    desk: DESK,
    playbooks: [{ name: 'File', steps: gotos.map((goto) => ({ goto })) }],
  });

  it('goes only to web addresses, and carries no secret', () => {
    expect(errorsOf(playbook('https://portal.test/login', 'http://{{unit.host}}/x', '{{unit.page}}'))).toEqual([]);
    expect(errorsOf(playbook('file:///etc/passwd', 'https://evil.test/?p={{ secret.password }}'))).toEqual([
      'playbooks[0] "File".steps[0]: a goto step must go to a web address starting http:// or https://',
      'playbooks[0] "File".steps[1]: a goto step may not carry a {{secret...}} value in its address; type secrets into the form with fill',
    ]);
    // A "{{" that is no placeholder is no way past the rule; a placeholder after the scheme stands for a word.
    expect(
      errorsOf(
        playbook('file:///etc/hostname#{{', 'chrome://version/#{{', 'file:///etc/{{unit.page}}', ' {{unit.page}}/x'),
      ),
    ).toEqual([
      'playbooks[0] "File".steps[0]: a goto step must go to a web address starting http:// or https://',
      'playbooks[0] "File".steps[1]: a goto step must go to a web address starting http:// or https://',
      'playbooks[0] "File".steps[2]: a goto step must go to a web address starting http:// or https://',
    ]);
  });
});

describe("a playbook's steps", () => {
  it('take their address, selector, value and name as text, as a run needs them, a number too', () => {
    const steps = [
      { click: { a: 1 } },
      { fill: '#x', value: [1, 2] },
      { goto: 5 },
      { click: null },
      { read: '#total', as: 7 },
      { fill: '#year', value: 2026 },
      { click: '#submit' },
      { expect_text: 5 },
      { expect_text: 'Received', value: 'x' },
    ];
    expect(errorsOf({ desk: DESK, playbooks: [{ name: 'File', steps }] })).toEqual([
      'playbooks[0] "File".steps[0]: a click step needs a value as text',
      'playbooks[0] "File".steps[1]: a fill step needs "value" as text',
      'playbooks[0] "File".steps[2]: a goto step needs a value as text',
      'playbooks[0] "File".steps[3]: a click step needs a value as text',
      'playbooks[0] "File".steps[4]: a read step needs "as" as text',
      // A number is no longer what was written (00123456 would be typed as 123456): in quotes.
      'playbooks[0] "File".steps[5]: a fill step needs "value" as text',
      'playbooks[0] "File".steps[7]: an expect_text step needs a value as text',
      'playbooks[0] "File".steps[8]: has fields an expect_text step does not use: value',
    ]);
  });
});

describe("a connection's settings", () => {
  const mailbox = (config: Record<string, unknown>) => ({
    desk: DESK,
    connections: [{ ref: 'box', provider: 'smtp', name: 'Shop mailbox', category: 'mail', config }],
  });

  it("keep the mailbox form's rules for an smtp provider written with spaces around it", () => {
    const spaced = {
      desk: DESK,
      connections: [
        {
          ref: 'box',
          provider: ' smtp ',
          name: 'Box',
          category: 'mail',
          config: { host: 'not a host!', port: 'twenty' },
        },
      ],
    };
    expect(errorsOf(spaced).map((m) => m.split(':')[0])).toEqual([
      'connections[0] "box".config.host',
      'connections[0] "box".config.port',
    ]);
  });

  it('hold no line break, which would end a mail header or a server command and begin another', () => {
    expect(errorsOf(mailbox({ host: 'smtp.test', from: 'Shop <shop@bakery.test>' }))).toEqual([]);
    expect(errorsOf(mailbox({ host: 'smtp.test', from: 'Evil <e@evil.test>\r\nBcc: <victim@x.test>' }))).toEqual([
      'connections[0] "box".config: from holds a line break or another control character',
    ]);
    expect(errorsOf(mailbox({ host: 'smtp.test', imap: { host: 'imap.test\n', user: 'u', pass: 'p' } }))).toEqual([
      'connections[0] "box".config: imap.host holds a line break or another control character',
    ]);
    // Inside a list too, at any depth.
    const portal = (config: Record<string, unknown>) => ({
      desk: DESK,
      connections: [{ ref: 'p', provider: 'gov-portal', name: 'Portal', category: 'filing', config }],
    });
    expect(errorsOf(portal({ hosts: ['a.test', 'b\nc'] }))).toEqual([
      'connections[0] "p".config: hosts[1] holds a line break or another control character',
    ]);
    expect(errorsOf(portal({ deep: { l: [{ x: 'y\r\nBcc: evil@e.test' }] } }))).toEqual([
      'connections[0] "p".config: deep.l[0].x holds a line break or another control character',
    ]);
    expect(errorsOf(portal({ hosts: ['a.test'], deep: { l: [{ x: 'y' }] } }))).toEqual([]);
  });

  it("keep the mailbox form's rules for what they give, so a bad one is found before a message fails", () => {
    expect(errorsOf(mailbox({ host: '127.0.0.1', port: 'twenty', secure: 'yes', from: 'not an address' }))).toEqual([
      'connections[0] "box".config.port: "twenty" is not a port: a whole number from 1 to 65535, such as 587.',
      'connections[0] "box".config.from: "not an address" is not an email address, such as Shop <shop@example.com>.',
      'connections[0] "box".config.secure: "yes" is not true or false.',
    ]);
    expect(errorsOf(mailbox({ port: 99999 }))).toEqual([
      'connections[0] "box".config.host: The mail server is required, such as smtp.example.com.',
      'connections[0] "box".config.port: 99999 is not a port: a whole number from 1 to 65535, such as 587.',
    ]);
    // The port (587, as the mailer takes it) and the sender (the user) may be left out. A user that
    // is no address is read back too, as a desk's own export holds it: its sends are refused (P-mail-10).
    expect(errorsOf(mailbox({ host: 'smtp.test', user: 'owner@bakery.test', starttls: false }))).toEqual([]);
    expect(errorsOf(mailbox({ host: 'smtp.test', user: 'apikey', starttls: false }))).toEqual([]);
    // Written as text, as an earlier export may hold them, a port and a flag are what they spell.
    const plan = readBusiness(mailbox({ host: 'smtp.test', port: ' 587 ', secure: 'TRUE', starttls: 'false' }), NOW);
    expect(plan.connections[0]?.config).toMatchObject({ port: 587, secure: true, starttls: false });
    // Its reading settings alike.
    const reading = readBusiness(
      mailbox({ host: 'smtp.test', imap: { host: 'imap.test', port: '993', secure: 'true', user: 'u', pass: 'p' } }),
      NOW,
    );
    expect(reading.connections[0]?.config.imap).toMatchObject({ port: 993, secure: true });
    // Infinity and not-a-number are named in words, not as JSON's null.
    expect(errorsOf(mailbox({ host: 'smtp.test', port: Number.POSITIVE_INFINITY, secure: Number.NaN }))).toEqual([
      'connections[0] "box".config.port: infinity is not a port: a whole number from 1 to 65535, such as 587.',
      'connections[0] "box".config.secure: not a number (.nan) is not true or false.',
    ]);
    expect(errorsOf({ desk: { ...DESK, daily_cap: Number.POSITIVE_INFINITY } })).toEqual([
      'desk.daily_cap: infinity must be a whole number from 0 to 1000 (acts the desk may do in one of its days)',
    ]);
    // Another service's settings are its own.
    expect(
      errorsOf({
        desk: DESK,
        connections: [{ provider: 'gov-portal', name: 'Tax portal', category: 'filing', config: { port: 'x' } }],
      }),
    ).toEqual([]);
  });

  it('refuse a sending setting the mailer does not read, as the reading part does, and take every one it reads', () => {
    const fields = 'the fields are host, port, secure, starttls, user, pass, from, imap';
    const errors = errorsOf(
      mailbox({ host: 'smtp.test', secrue: true, user: 'owner', pasword: 'hunter2', form: 'Shop <shop@bakery.test>' }),
    );
    expect(errors).toEqual([
      `connections[0] "box".config.secrue: unknown field; ${fields}`,
      `connections[0] "box".config.pasword: unknown field; ${fields}`,
      `connections[0] "box".config.form: unknown field; ${fields}`,
    ]);
    expect(errors.join('\n')).not.toContain('hunter2');
    // Found with a setting that holds a line break, and with the reading part's own.
    expect(
      errorsOf(mailbox({ host: 'smtp.test', from: 'a\nb', sender: 'x', imap: { host: 'imap.test', passwd: 'p' } })),
    ).toEqual([
      'connections[0] "box".config: from holds a line break or another control character',
      `connections[0] "box".config.sender: unknown field; ${fields}`,
      'connections[0] "box".config.imap.passwd: unknown field; the fields are host, port, secure, user, pass, mailbox',
    ]);
    const every = {
      host: 'smtp.test',
      port: 587,
      secure: false,
      starttls: true,
      user: 'owner',
      pass: 's3cret',
      from: 'Shop <shop@bakery.test>',
      imap: { host: 'imap.test', port: 993, secure: true, user: 'owner', pass: 's3cret', mailbox: 'INBOX' },
    };
    expect(errorsOf(mailbox(every))).toEqual([]);
    expect(errorsOf(mailbox({ ...every, user: null, pass: null, from: null, imap: null }))).toEqual([]);
  });
});

describe("a row's text", () => {
  it('is text: a number is refused, as read it is no longer what was written', () => {
    const doc = {
      desk: { ...DESK, name: 1.5 },
      work: [{ title: 16, kind: 1000, detail: 7, contact_name: Number.POSITIVE_INFINITY }, { title: 'Kept' }],
    };
    const said = 'must be text; write it in quotes to keep it as it is written';
    expect(errorsOf(doc).sort()).toEqual(
      [
        `desk.name: ${said}`,
        `work[0].contact_name: ${said}`,
        `work[0].detail: ${said}`,
        `work[0].kind: ${said}`,
        `work[0].title: ${said}`,
      ].sort(),
    );
  });

  it('is as long as the same field may be on the screen, and no longer', () => {
    const row = {
      title: 'Big row',
      kind: 'k'.repeat(101),
      detail: 'd'.repeat(20_001),
      contact_name: 'n'.repeat(201),
      waiting_on: 'w'.repeat(200),
    };
    expect(errorsOf({ desk: DESK, work: [row] }).sort()).toEqual([
      'work[0] "Big row".contact_name: must be at most 200 characters',
      'work[0] "Big row".detail: must be at most 20000 characters',
      'work[0] "Big row".kind: must be at most 100 characters',
    ]);
    expect(errorsOf({ desk: DESK, work: [{ title: 't'.repeat(501) }] })).toEqual([
      `work[0] "${'t'.repeat(60)}…".title: must be at most 500 characters`,
    ]);
  });

  it('is held to its limit as it is kept, with the direction it opens closed, so an export of it reads back', () => {
    const opened = `\u202e${'a'.repeat(499)}`;
    expect(errorsOf({ desk: DESK, work: [{ title: opened }] })).toEqual([
      // The label quoting it closes its direction too, so the rest of the line reads as written.
      `work[0] "${opened.slice(0, 60)}\u202c…".title: must be at most 500 characters`,
    ]);
    const fits = `\u202e${'a'.repeat(498)}`;
    const plan = readBusiness({ desk: DESK, work: [{ title: fits }] }, NOW);
    expect(plan.work[0]?.title).toBe(`${fits}\u202c`);
    // What was kept is taken again as it is.
    expect(errorsOf({ desk: DESK, work: [{ title: `${fits}\u202c` }] })).toEqual([]);
    expect(errorsOf({ desk: { ...DESK, name: `\u202e${'n'.repeat(199)}` } })).toEqual([
      'desk.name: must be at most 200 characters',
    ]);
  });

  it('counts an emoji as one character', () => {
    expect(errorsOf({ desk: DESK, work: [{ title: '😀'.repeat(500) }] })).toEqual([]);
    expect(errorsOf({ desk: DESK, work: [{ title: '😀'.repeat(501) }] })).toEqual([
      `work[0] "${'😀'.repeat(60)}…".title: must be at most 500 characters`,
    ]);
  });

  it('lets a row wait on the longest address a message can go to, as a send leaves it', () => {
    const address = `${'a'.repeat(247)}@x.test`;
    expect(errorsOf({ desk: DESK, work: [{ title: 'Out', contact_email: address, waiting_on: address }] })).toEqual([]);
  });

  it('reads back an address list a desk held from before lists were refused, which its send then refuses', () => {
    expect(errorsOf({ desk: DESK, work: [{ title: 'Both', contact_email: 'ann,bob@x.test' }] })).toEqual([]);
    expect(errorsOf({ desk: DESK, work: [{ title: 'Nobody', contact_email: 'ann at x' }] })).toEqual([
      'work[0] "Nobody".contact_email: "ann at x" is not an email address',
    ]);
  });
});

describe('a finished row', () => {
  it('holds no reply still to read, as closing or completing a row clears it', () => {
    for (const status of ['done', 'closed'])
      expect(errorsOf({ desk: DESK, work: [{ title: 'Paid', status, replied_by: 'Sam', replied_at: '-1d' }] })).toEqual(
        [
          `work[0] "Paid".replied_by: is for a reply still to read, on a row not done or closed; this row is ${status}`,
          `work[0] "Paid".replied_at: is for a reply still to read, on a row not done or closed; this row is ${status}`,
        ],
      );
    expect(errorsOf({ desk: DESK, work: [{ title: 'Out', replied_by: 'Sam', replied_at: '-1d' }] })).toEqual([]);
  });

  it('holds no message still to go, as finishing a row withdraws it', () => {
    const row = (status: string, message: string) => ({
      desk: DESK,
      work: [{ title: 'Paid', status, contact_email: 'a@x.test', messages: [{ status: message, body: 'Hello' }] }],
    });
    expect(errorsOf(row('done', 'drafted'))).toEqual([
      'work[0] "Paid".messages[0].status: a done row holds no drafted message; give it as sent, or leave it out',
    ]);
    expect(errorsOf(row('closed', 'approved'))).toEqual([
      'work[0] "Paid".messages[0].status: a closed row holds no approved message; give it as sent, or leave it out',
    ]);
    expect(errorsOf(row('done', 'sent'))).toEqual([]);
    expect(errorsOf(row('open', 'drafted'))).toEqual([]);
  });
});

describe("a row's messages", () => {
  const row = (over: Record<string, unknown>, message: Record<string, unknown>) => ({
    desk: DESK,
    work: [{ title: 'Pay the flour invoice', ...over, messages: [{ body: 'Paying on Friday.', ...message }] }],
  });

  it('holds one drafted message at most, the one the desk would send', () => {
    const messages = (...statuses: string[]) => ({
      desk: DESK,
      work: [
        {
          title: 'Pay the flour invoice',
          contact_email: 'accounts@mill.test',
          messages: statuses.map((status, i) => ({ status, body: `Message ${i}` })),
        },
      ],
    });
    expect(errorsOf(messages('sent', 'drafted', 'approved', 'drafted'))).toEqual([
      'work[0] "Pay the flour invoice".messages[3].status: a row holds one drafted message; messages[1] is drafted already',
    ]);
    expect(errorsOf(messages('sent', 'approved', 'drafted', 'sent', 'approved'))).toEqual([]);
  });

  it('refuses a message still to go with nobody to go to', () => {
    for (const [status, said] of [
      ['drafted', 'a drafted'],
      ['approved', 'an approved'],
    ])
      expect(errorsOf(row({}, { status }))).toEqual([
        `work[0] "Pay the flour invoice".messages[0].to: is needed for ${said} message: give "to", or contact_email on the row`,
      ]);
  });

  it("refuses a subject still to go that is not one line, as it goes out as the mail's header", () => {
    const to = 'accounts@mill.test';
    for (const status of ['drafted', 'approved'])
      for (const subject of [
        'Invoice 4471\r\nBcc: victim@x.test',
        'Invoice\n4471',
        'Invoice\t4471',
        'Invoice\u20284471',
      ])
        expect(errorsOf(row({}, { status, to, subject }))).toEqual([
          'work[0] "Pay the flour invoice".messages[0].subject: holds a line break or another control character; a subject goes out as one header line',
        ]);
    // A line break at its end (a YAML block's) is trimmed as every text is.
    expect(errorsOf(row({}, { status: 'drafted', to, subject: 'Invoice 4471\n' }))).toEqual([]);
    // A sent one is the record of what went, as an earlier version kept it.
    expect(errorsOf(row({}, { status: 'sent', to, subject: 'Invoice\n4471' }))).toEqual([]);
  });

  it('takes a message with no subject, and a sent one by a channel the business names', () => {
    const to = 'accounts@mill.test';
    const plan = readBusiness(row({}, { status: 'drafted', to }), NOW);
    expect(plan.work[0]?.messages[0]).toMatchObject({ channel: 'email', subject: null });
    const sent = readBusiness(row({}, { status: 'sent', to, channel: 'sms' }), NOW);
    expect(sent.work[0]?.messages[0]).toMatchObject({ channel: 'sms', status: 'sent' });
    expect(errorsOf(row({}, { status: 'approved', to, channel: 'email' }))).toEqual([]);
  });

  it('refuses a message still to go by another channel than email, which it would be sent by', () => {
    const to = 'accounts@mill.test';
    for (const [status, said] of [
      ['drafted', 'a drafted'],
      ['approved', 'an approved'],
    ])
      expect(errorsOf(row({}, { status, to, channel: 'sms' }))).toEqual([
        `work[0] "Pay the flour invoice".messages[0].channel: is "sms", but the desk sends only by email; give ${said} message channel email, or give it as sent`,
      ]);
  });

  it('holds a message still to go to the lengths the owner may approve it at, and a sent one to none', () => {
    const to = 'accounts@mill.test';
    const subject = 'S'.repeat(MESSAGE_MAX.subject);
    const body = 'B'.repeat(MESSAGE_MAX.body);
    for (const status of ['drafted', 'approved']) {
      expect(errorsOf(row({}, { status, to, subject, body }))).toEqual([]);
      expect(errorsOf(row({}, { status, to, subject: `${subject}S`, body: `${body}B` }))).toEqual([
        `work[0] "Pay the flour invoice".messages[0].body: must be at most ${MESSAGE_MAX.body} characters`,
        `work[0] "Pay the flour invoice".messages[0].subject: must be at most ${MESSAGE_MAX.subject} characters`,
      ]);
    }
    expect(errorsOf(row({}, { status: 'sent', to, subject: `${subject}S`, body: `${body}B` }))).toEqual([]);
  });

  it('takes the day a sent message went, up to today, and refuses it on a message still to go', () => {
    const to = 'accounts@mill.test';
    expect(errorsOf(row({}, { status: 'sent', sent_at: '-3d' }))).toEqual([]);
    expect(errorsOf(row({}, { status: 'drafted', to, sent_at: '-3d' }))).toEqual([
      'work[0] "Pay the flour invoice".messages[0].sent_at: is for a sent message; this one is drafted',
    ]);
    const [late] = errorsOf(row({}, { status: 'sent', sent_at: '+1d' }));
    expect(late).toMatch(/^work\[0\] "Pay the flour invoice"\.messages\[0\]\.sent_at: \S+ is after today \(\S+\)$/);
  });

  it("takes one addressed by itself or by the row's contact, and a sent one with neither", () => {
    expect(errorsOf(row({}, { status: 'drafted', to: 'accounts@mill.test' }))).toEqual([]);
    expect(errorsOf(row({ contact_email: 'accounts@mill.test' }, { status: 'approved' }))).toEqual([]);
    expect(errorsOf(row({}, { status: 'sent' }))).toEqual([]);
  });
});

describe('a status the file gets wrong', () => {
  it('is the one error its row and messages have: nothing else is held to a status it does not give', () => {
    const doc = {
      desk: DESK,
      work: [
        {
          title: 'Pay the flour invoice',
          status: 'Done',
          closed_at: '-1d',
          replied_by: 'Mill',
          messages: [
            { status: 'Sent', body: 'Paid.', sent_at: '-1d' },
            { status: 'lost', body: 'Paid, again.' },
          ],
        },
      ],
    };
    expect(errorsOf(doc)).toEqual([
      'work[0] "Pay the flour invoice".status: "Done" is not one of open, in_progress, waiting, done, closed',
      'work[0] "Pay the flour invoice".messages[0].status: "Sent" is not one of drafted, approved, sent',
      'work[0] "Pay the flour invoice".messages[1].status: "lost" is not one of drafted, approved, sent',
    ]);
  });
});

describe("a finished row's closed_at", () => {
  const row = (over: Record<string, unknown>) => ({ desk: DESK, work: [{ title: 'File the VAT return', ...over }] });
  const where = 'work[0] "File the VAT return".closed_at';

  it('is taken on a done or closed row, on any day up to today', () => {
    for (const status of ['done', 'closed'])
      for (const closed_at of ['today', '-1d', '-400d']) expect(errorsOf(row({ status, closed_at }))).toEqual([]);
  });

  it('is refused on an open row, and after today', () => {
    expect(errorsOf(row({ status: 'waiting', closed_at: '-1d' }))).toEqual([
      `${where}: is for a done or closed row; this row is waiting`,
    ]);
    expect(errorsOf(row({ closed_at: 'today' }))).toEqual([`${where}: is for a done or closed row; this row is open`]);
    const [message] = errorsOf(row({ status: 'done', closed_at: '+1d' }));
    const [, day, today] = /^work\[0\] "File the VAT return"\.closed_at: (\S+) is after today \((\S+)\)$/.exec(
      message!,
    )!;
    expect(Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)).toBe(86_400_000);
  });
});

describe('the text naming an arrangement, a unit, a connection and a watch', () => {
  it('is refused past its length, naming the entry and the field, and taken at it', () => {
    const doc = (n: number, w: number) => ({
      desk: DESK,
      arrangements: [{ name: 'a'.repeat(n), counterparty: 'c'.repeat(n), kind: 'k'.repeat(w) }],
      units: [{ type: 't'.repeat(w), name: 'u'.repeat(n) }],
      connections: [{ provider: 'p'.repeat(n), name: 'n'.repeat(n), category: 'c'.repeat(w) }],
      watches: [
        {
          subject_type: 's'.repeat(w),
          field: 'f'.repeat(w),
          label: 'l'.repeat(n),
          kind: 'k'.repeat(w),
          action: 'commit',
        },
      ],
    });
    expect(errorsOf(doc(200, 100))).toEqual([]);
    const name = `"${'a'.repeat(60)}…"`;
    const unit = `"${'u'.repeat(60)}…"`;
    expect(errorsOf(doc(201, 101)).sort()).toEqual(
      [
        `arrangements[0] ${name}.name: must be at most 200 characters`,
        `arrangements[0] ${name}.counterparty: must be at most 200 characters`,
        `arrangements[0] ${name}.kind: must be at most 100 characters`,
        `units[0] ${unit}.type: must be at most 100 characters`,
        `units[0] ${unit}.name: must be at most 200 characters`,
        `connections[0] "${'n'.repeat(60)}…".provider: must be at most 200 characters`,
        `connections[0] "${'n'.repeat(60)}…".name: must be at most 200 characters`,
        `connections[0] "${'n'.repeat(60)}…".category: must be at most 100 characters`,
        'watches[0].subject_type: must be at most 100 characters',
        'watches[0].field: must be at most 100 characters',
        'watches[0].label: must be at most 200 characters',
        'watches[0].kind: must be at most 100 characters',
      ].sort(),
    );
  });
});

describe("the desk's own name and slug", () => {
  it('are refused past their lengths, the slug saying it is its length that is wrong', () => {
    expect(errorsOf({ desk: { ...DESK, name: 'n'.repeat(200) } })).toEqual([]);
    expect(errorsOf({ desk: { ...DESK, name: 'n'.repeat(201), slug: 's'.repeat(64) } })).toEqual([
      'desk.name: must be at most 200 characters',
      `desk.slug: "${'s'.repeat(60)}…" is 64 characters long; a slug is at most 63`,
    ]);
  });
});

describe("a unit's columns", () => {
  it('keep free text and real dates, and refuse text shaped as a date that is no day', () => {
    const doc = (lease_end: unknown) => ({
      desk: DESK,
      units: [{ type: 'site', name: 'High St', fields: { lease_end, note: 'back door 2027' } }],
    });
    expect(errorsOf(doc('2028-02-29'))).toEqual([]);
    expect(errorsOf(doc('not yet known'))).toEqual([]);
    expect(errorsOf(doc('2027-13-40'))).toEqual([
      'units[0] "High St".fields.lease_end: "2027-13-40" is not a day on the calendar',
    ]);
    expect(errorsOf(doc('2027-02-29'))).toEqual([
      'units[0] "High St".fields.lease_end: "2027-02-29" is not a day on the calendar',
    ]);
    expect(errorsOf(doc('1899-12-31'))).toEqual([
      'units[0] "High St".fields.lease_end: "1899-12-31" is before 1900-01-01, the first day the desk keeps',
    ]);
    // A work item's own dates say the same of a year typed short.
    expect(errorsOf({ desk: DESK, work: [{ title: 'Renew', due: '0026-12-01' }] })).toEqual([
      'work[0] "Renew".due: "0026-12-01" is before 1900-01-01, the first day the desk keeps',
    ]);
  });

  it('hold a relative date within the days a date field takes, trimmed, as the file can be read again', () => {
    const doc = (lease_end: unknown) => ({
      desk: DESK,
      units: [{ type: 'site', name: 'High St', fields: { lease_end } }],
    });
    expect(readBusiness(doc(' +3d '), NOW).units[0]!.fields).toEqual({ lease_end: '2026-11-25' });
    expect(readBusiness(doc(' 2027-01-05 '), NOW).units[0]!.fields).toEqual({ lease_end: '2027-01-05' });
    expect(errorsOf(doc('-99999d'))).toEqual([
      'units[0] "High St".fields.lease_end: "-99999d" falls outside 1900-01-01 to 9999-12-31',
    ]);
    // However many digits: an offset is a date or refused, never kept as text a watch cannot read.
    expect(readBusiness(doc('+100000d'), NOW).units[0]!.fields).toEqual({
      lease_end: addDays(dateIn('UTC', NOW), 100000),
    });
    for (const far of ['+9000000d', '+123456789d'])
      expect(errorsOf(doc(far))).toEqual([
        `units[0] "High St".fields.lease_end: "${far}" falls outside 1900-01-01 to 9999-12-31`,
      ]);
  });

  it('keep a number as written, and refuse one no store would keep as it was written', () => {
    const doc = (v: unknown) => ({ desk: DESK, units: [{ type: 'site', name: 'High St', fields: { v } }] });
    expect(readBusiness(doc(12.5), NOW).units[0]!.fields).toEqual({ v: 12.5 });
    expect(readBusiness(doc(Number.MAX_SAFE_INTEGER), NOW).units[0]!.fields).toEqual({ v: Number.MAX_SAFE_INTEGER });
    for (const [v, said] of [
      [Number.POSITIVE_INFINITY, 'infinity'],
      [Number.NaN, 'not a number (.nan)'],
      [2 ** 64, String(2 ** 64)],
    ] as const)
      expect(errorsOf(doc(v))).toEqual([
        `units[0] "High St".fields.v: ${said} cannot be kept as a number; write it in quotes to keep it as text`,
      ]);
  });

  it('may be named anything, __proto__ too', () => {
    const fields = JSON.parse('{"__proto__": "kept", "constructor": 1}');
    const read = readBusiness({ desk: DESK, units: [{ type: 'site', name: 'High St', fields }] }, NOW);
    expect(JSON.stringify(read.units[0]!.fields)).toBe('{"__proto__":"kept","constructor":1}');
  });
});

describe("the desk's today", () => {
  it("is the day in the desk's zone, however the zone is spaced or cased", () => {
    // 10:00 UTC on 22 November is already the 23rd in Kiritimati (UTC+14).
    for (const timezone of ['Pacific/Kiritimati', ' Pacific/Kiritimati ', 'pacific/kiritimati']) {
      const read = readBusiness({ desk: { ...DESK, timezone }, work: [{ title: 'Rent', due: 'today' }] }, NOW);
      expect(read.desk.timezone, timezone).toBe('Pacific/Kiritimati');
      expect(read.work[0]!.due_date, timezone).toBe('2026-11-23');
    }
  });
});

describe('a number past 2^53', () => {
  it('is said to be too large, not quoted as a number the file does not hold', () => {
    const file = JSON.parse(
      '{"desk": {"name": "A", "slug": "a"}, "work": [{"title": "t", "priority": 99999999999999999999}]}',
    );
    expect(errorsOf(file)).toEqual(['work[0] "t".priority: is too large a number; it must be between 1 and 100']);
  });
});

describe('a syntax error on a very long line', () => {
  it('shows the line around the place, not all of it', () => {
    const text = `{"desk": {"name": "A", "slug": "a"}, "work": [${'{"title": "t"}, '.repeat(5000)}]}`;
    let said = '';
    try {
      parseBusinessText(text, 'big.json');
    } catch (err) {
      said = (err as Error).message;
    }
    expect(said).toMatch(/^big\.json is not JSON: line 1, column \d+: /);
    const [, shown, caret] = said.split('\n');
    expect(shown!.length).toBeLessThan(120);
    expect(shown).toMatch(/^ {2}1 \| ….*\]\}$/);
    // The caret stands under the comma before the closing bracket.
    expect(shown![caret!.indexOf('^')]).toBe(',');
  });
});

/** The quoted line and the caret line of a JSON file's syntax error. */
function pointedAt(text: string): [string, string] {
  try {
    parseBusinessText(text, 'odd.json');
  } catch (err) {
    const [, shown, caret] = (err as Error).message.split('\n');
    return [shown!, caret!];
  }
  throw new Error('the file was read');
}

describe('a syntax error on a line holding a direction mark', () => {
  it('writes the mark out, and stands the caret under the place as the line is shown', () => {
    const [shown, caret] = pointedAt('{"desk": {"name": "X\u202e RTL 日本", "slug": "a",}}');
    expect(shown).toBe('  1 | {"desk": {"name": "X\\u202e RTL 日本", "slug": "a",}}');
    // Each CJK character takes two places on the terminal: the caret counts them so.
    const prefix = shown!.slice(0, shown!.lastIndexOf(','));
    const placesBefore = [...prefix].reduce((n, c) => n + (/[日本]/.test(c) ? 2 : 1), 0);
    expect(caret!.indexOf('^')).toBe(placesBefore);
  });

  it.each([
    ['flags', '🇬🇧', 80],
    ['a family', '👨‍👩‍👧', 40],
  ])('never cuts %s where a long line is shown around the place', (_, drawn, n) => {
    const [shown] = pointedAt(`{"desk": {"name": "${drawn.repeat(n)}", "slug": "abc",}}`);
    const quoted = shown.slice('  1 | …'.length, shown.indexOf('"', '  1 | …'.length));
    expect(quoted.length % drawn.length).toBe(0);
    expect(quoted).toBe(drawn.repeat(quoted.length / drawn.length));
  });

  it('never cuts an emoji in two where a long line is shown around the place', () => {
    const [shown, caret] = pointedAt(`{"desk": {"name": "${'😀'.repeat(151)}", "slug": "a",}}`);
    expect(shown!.startsWith('  1 | …😀')).toBe(true);
    // An emoji takes two places on a terminal, as string-width counts it.
    const prefix = shown!.slice(0, shown!.lastIndexOf(','));
    const places = [...prefix].reduce((n, c) => n + (c === '😀' ? 2 : 1), 0);
    expect(caret!.indexOf('^')).toBe(places);
  });
});

describe("the errors' order", () => {
  it("is the file's: sections as written, then entries by index, then fields as written; a field left out after those given", () => {
    const doc = {
      work: [
        'not a row',
        { due: 'soon', arrangement: 'nowhere', messages: [{ body: 'Hi', status: 'drafted' }], colour: 'red' },
      ],
      units: [{ ref: 'oven', arrangement: 'lease', type: 'equipment', name: 'Oven' }],
      desk: { slug: 'Bad Slug', name: 'Broken' },
      grants: ['money'],
    };
    expect(errorsOf(doc)).toEqual([
      'work[0]: must be a mapping of fields',
      'work[1].due: "soon" is not a date (YYYY-MM-DD, today, +3d or -12d)',
      'work[1].arrangement: no arrangement has ref "nowhere"',
      'work[1].messages[0].to: is needed for a drafted message: give "to", or contact_email on the row',
      expect.stringMatching(/^work\[1\]\.colour: unknown field; /),
      'work[1].title: is required',
      'units[0] "oven".arrangement: no arrangement has ref "lease"',
      'desk.slug: "Bad Slug" must be lower-case letters, digits and dashes, starting with a letter or a digit',
      'grants[0]: "money" cannot be granted: paying money always needs a person',
    ]);
  });
});

describe('text neither database can keep', () => {
  it('is refused wherever it sits, a value or a field name, naming the entry and the field', () => {
    const doc = {
      desk: { ...DESK, broker: 'Se\u0000do' },
      connections: [
        {
          ref: 'c',
          provider: 'x',
          name: 'Books',
          category: 'accounting',
          config: { nested: ['ok', 'lone \uD800'], 'k\u0000': 1 },
        },
      ],
      work: [{ title: 'a\u0000b' }, { title: 'Pay rates', detail: 'half \uDC00' }],
    };
    expect(errorsOf(doc)).toEqual([
      'desk.broker: holds a NUL character (\\u0000), which the desk cannot store',
      'connections[0] "c".config.nested[1]: holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape with no partner), which is not text the desk can store',
      `connections[0] "c".config: a field's name holds a NUL character (\\u0000), which the desk cannot store`,
      'work[0].title: holds a NUL character (\\u0000), which the desk cannot store',
      'work[1] "Pay rates".detail: holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape with no partner), which is not text the desk can store',
    ]);
  });

  it('takes a surrogate pair, which is one character', () => {
    expect(errorsOf({ desk: DESK, work: [{ title: 'Cake \uD83C\uDF82' }] })).toEqual([]);
  });
});

describe("a waiting row's days", () => {
  const row = (over: Record<string, unknown>) => ({ desk: DESK, work: [{ title: 'Get the quote', ...over }] });

  it('takes waiting_since and replied_at up to today, and waiting_since only with somebody to wait on', () => {
    expect(errorsOf(row({ waiting_on: 'Sam', waiting_since: '-3d' }))).toEqual([]);
    expect(errorsOf(row({ replied_by: 'Sam', replied_at: 'today' }))).toEqual([]);
    // An empty waiting_on is no one, as every empty optional text is absent.
    for (const waiting_on of [undefined, '', '  '])
      expect(errorsOf(row({ waiting_on, waiting_since: '-3d' }))).toEqual([
        'work[0] "Get the quote".waiting_since: is for a row waiting on somebody; give waiting_on too',
      ]);
    const late = errorsOf(row({ waiting_on: 'Sam', waiting_since: '+5d', replied_by: 'Sam', replied_at: '+1d' }));
    expect(late.map((m) => m.replace(/\d{4}-\d{2}-\d{2}/g, 'DAY'))).toEqual([
      'work[0] "Get the quote".waiting_since: DAY is after today (DAY)',
      'work[0] "Get the quote".replied_at: DAY is after today (DAY)',
    ]);
  });
});

describe("the desk's timezone", () => {
  it('is stored as IANA spells it, whatever case the file wrote it in', () => {
    expect(readBusiness({ desk: { ...DESK, timezone: 'europe/london' } }, NOW).desk.timezone).toBe('Europe/London');
  });
});

describe('a name a file gives twice', () => {
  it('names the entry and the field: a block id, a playbook name', () => {
    const block = (title: string) => ({ id: 'money', title, kind: 'work', kinds: ['invoice'] });
    const playbook = { name: 'file', steps: [{ goto: 'https://example.com/' }] };
    expect(errorsOf({ desk: DESK, sections: [block('Owed'), block('Paid')] })).toEqual([
      'sections[1] "Paid".id: "money" is used twice',
    ]);
    expect(errorsOf({ desk: DESK, playbooks: [playbook, playbook] })).toEqual([
      'playbooks[1] "file".name: "file" is used twice',
    ]);
  });

  it("holds a playbook's name to a name's length, which every database can keep unique", () => {
    const named = (name: string) => ({ desk: DESK, playbooks: [{ name, steps: [{ goto: 'https://example.com/' }] }] });
    expect(errorsOf(named('a'.repeat(200)))).toEqual([]);
    expect(errorsOf(named('a'.repeat(201)))).toEqual([
      `playbooks[0] "${'a'.repeat(60)}…".name: must be at most 200 characters`,
    ]);
  });
});

describe('where a syntax error is said to be', () => {
  const refusal = (text: string, source = 'odd.yaml') => {
    try {
      parseBusinessText(text, source);
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('the file was read');
  };

  it('counts a lone CR as a line break, as the YAML reader does, in the message and the excerpt', () => {
    const said = refusal('desk: { name: T, slug: t }\rwork:\r  - { title: A ]\r');
    const [first, shown, caret] = said.split('\n');
    const at = /line (\d+), column (\d+)/.exec(first!)!;
    expect(at[1]).toBe('3');
    expect(shown).toBe('  3 |   - { title: A ]');
    expect(caret!.indexOf('^') - caret!.indexOf('|') - 2).toBe(Number(at[2]) - 1);
    // JSON written with CRs alone is counted the same way.
    expect(refusal('{\r"desk": {"name": "T",}\r}', 'odd.json')).toMatch(/^odd\.json is not JSON: line 2, column /);
  });

  it('counts columns after a byte-order mark as if it were not there, and does not show it', () => {
    const said = refusal('\uFEFFdesk: { name: T, slug: t ]\n');
    const [first, shown, caret] = said.split('\n');
    expect(first).toMatch(/at line 1, column 26\b/);
    expect(shown).toBe('  1 | desk: { name: T, slug: t ]');
    expect(caret!.indexOf('^')).toBe(shown!.indexOf(']'));
  });

  it('refuses a null byte by its place, at once, however many there are', () => {
    expect(refusal('desk:\n  name: T\0')).toMatch(
      /^odd\.yaml is not YAML or JSON: it holds a null byte at line 2, column 10, which a text file does not\./,
    );
    const many = refusal('\0'.repeat(20_000_000));
    expect(many.split('\n')[0]).toBe(
      'odd.yaml is not YAML or JSON: it holds a null byte at line 1, column 1, which a text file does not.',
    );
    expect(many.length).toBeLessThan(1_000);
  });
});

describe('a ref used twice', () => {
  it('is said of the later entry in the file, naming the one that holds it first, whatever the sections', () => {
    const arrangementsFirst = {
      desk: DESK,
      arrangements: [
        { ref: 'a', name: 'A' },
        { ref: 'y', name: 'Lease' },
      ],
      units: [{ ref: 'y', type: 'site', name: 'Shop' }],
    };
    expect(errorsOf(arrangementsFirst)).toEqual(['units[0] "y".ref: "y" is already the ref of arrangements[1] "y"']);
    const unitsFirst = {
      desk: DESK,
      units: [{ ref: 'y', type: 'site', name: 'Shop' }],
      arrangements: [{ ref: 'y', name: 'Lease' }],
    };
    expect(errorsOf(unitsFirst)).toEqual(['arrangements[0] "y".ref: "y" is already the ref of units[0] "y"']);
  });
});

describe("a block's kinds and fields", () => {
  it('are at most 50 each, as a block from chat keeps', () => {
    const names = Array.from({ length: 51 }, (_, i) => `k${i}`);
    const block = (over: Record<string, unknown>) => ({
      desk: DESK,
      sections: [{ id: 'all', title: 'All', kind: 'work', ...over }],
    });
    expect(errorsOf(block({ kinds: names.slice(0, 50) }))).toEqual([]);
    expect(errorsOf(block({ kinds: names }))).toEqual([
      'sections[0] "All".kinds: lists 51 kinds; a block collects at most 50',
    ]);
    expect(errorsOf(block({ kind: 'units', fields: names.map((name) => ({ name, hint: '' })) }))).toEqual([
      'sections[0] "All".fields: lists 51 fields; a block explains at most 50',
    ]);
  });

  it('keep a kind listed twice once, in the order first listed', () => {
    const plan = readBusiness(
      { desk: DESK, sections: [{ id: 'w', title: 'W', kind: 'work', kinds: ['repair', ' repair ', 'B', 'a', 'B'] }] },
      NOW,
    );
    expect(plan.sections[0]?.kinds).toEqual(['repair', 'B', 'a']);
  });

  it("take a field's hint as text, a number as it is written, and refuse any other", () => {
    const fields = (...hints: unknown[]) => ({
      desk: DESK,
      sections: [{ id: 'u', title: 'Units', kind: 'units', fields: hints.map((hint, i) => ({ name: `f${i}`, hint })) }],
    });
    expect(errorsOf(fields(5, [1, 2], { a: 1 }, true))).toEqual([
      'sections[0] "Units".fields[1].hint: must be text',
      'sections[0] "Units".fields[2].hint: must be text',
      'sections[0] "Units".fields[3].hint: must be text',
    ]);
    const plan = readBusiness(fields(' Lease end ', 5, null, '\u202eevil'), NOW);
    expect(plan.sections[0]?.fields).toEqual([
      { name: 'f0', hint: 'Lease end' },
      { name: 'f1', hint: '5' },
      { name: 'f2', hint: '' },
      // Its direction closed, as the block's other text is.
      { name: 'f3', hint: '\u202eevil\u202c' },
    ]);
  });
});

describe("a row's due date written as an offset", () => {
  it('is taken wherever it lands among the days kept, and said to land outside them otherwise', () => {
    expect(errorsOf({ desk: DESK, work: [{ title: 'Far', due: '+100000d' }] })).toEqual([]);
    expect(errorsOf({ desk: DESK, work: [{ title: 'Too far', due: '+9999999d' }] })).toEqual([
      'work[0] "Too far".due: "+9999999d" lands outside the days the desk keeps, 1900-01-01 to 9999-12-31',
    ]);
  });
});

describe('required text that draws nothing', () => {
  it('is as empty as the CLI and the screen hold it, at every place the file names', () => {
    expect(
      errorsOf({
        desk: { ...DESK, name: '\u200b' },
        arrangements: [{ ref: 'a', name: '\u2060\u200d' }],
        units: [{ ref: 'u', type: 'site', name: '\ufeff' }],
        work: [{ title: '\u200b \u200b' }, { title: 'Fine 👨‍👩‍👧' }],
      }),
    ).toEqual([
      'desk.name: must not be empty',
      'arrangements[0] "a".name: must not be empty',
      'units[0] "u".name: must not be empty',
      'work[0].title: must not be empty',
    ]);
  });
});

describe('a ref or a name another entry points at', () => {
  it('is the same name in either Unicode form of its accented letters, and is kept in one', () => {
    const composed = 'Caf\u00e9';
    const decomposed = 'Cafe\u0301';
    const doc = {
      desk: DESK,
      arrangements: [{ ref: composed, name: 'Café lease', kind: 'lease' }],
      units: [{ ref: decomposed.toLowerCase(), type: 'site', name: 'Shop', arrangement: decomposed }],
      playbooks: [{ name: decomposed, steps: [{ goto: 'https://portal.test/' }] }],
      work: [
        {
          title: 'Renew',
          arrangement: decomposed,
          unit: composed.toLowerCase(),
          playbook: composed,
        },
      ],
    };
    expect(errorsOf(doc)).toEqual([]);
    const plan = readBusiness(doc, NOW);
    expect(plan.work[0]).toMatchObject({ arrangement: composed, unit: 'café', playbook: composed });
    expect(plan.units[0]).toMatchObject({ ref: 'café', arrangement: composed });
    expect(plan.playbooks[0]?.name).toBe(composed);
    // Two refs that differ only in that form are one ref used twice.
    const twice = { desk: DESK, arrangements: [doc.arrangements[0], { ...doc.arrangements[0], ref: decomposed }] };
    expect(errorsOf(twice)).toEqual([
      `arrangements[1] "${decomposed}".ref: "${composed}" is already the ref of arrangements[0] "${composed}"`,
    ]);
  });
});
