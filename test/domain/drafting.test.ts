import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX, SETUP_TEXT_MAX, TEXT_MAX } from '../../src/domain/limits.ts';
import { composeDraft, regreet, templateFor, type DraftFacts } from '../../src/domain/work/compose.ts';

const base: DraftFacts = {
  title: 'Renew the shop lease',
  permission: 'reach_out',
  due_date: '2026-12-01',
  today: '2026-11-22',
  contact_name: 'Priya Shah',
  contact_email: 'priya@landlord.test',
  waiting_on: null,
  waiting_since: null,
  about: 'High Street lease',
  notes: [],
  signature: 'Corner Bakery Ltd',
};

describe("drafting from a row's facts", () => {
  it('picks one template per permission class, a neutral one for none or sign, and chases a row that is out', () => {
    expect(templateFor('reach_out', null)).toBe('reach_out');
    expect(templateFor('chase', null)).toBe('chase');
    expect(templateFor('file', null)).toBe('file');
    expect(templateFor('commit', null)).toBe('commit');
    expect(templateFor('money', null)).toBe('money');
    expect(templateFor(null, null)).toBe('neutral');
    expect(templateFor('sign', null)).toBe('neutral');
    expect(templateFor('reach_out', 'Priya Shah')).toBe('chase');
    expect(templateFor('money', 'Priya Shah')).toBe('money');
  });

  it('writes the subject on one line, whatever line breaks or control characters the title or a reply holds', () => {
    const d = composeDraft({ ...base, about: null, title: 'Book\r\nBcc: evil@attacker.test\u0000 \tnow\u2028ok' });
    expect(d.subject).toBe('Book Bcc: evil@attacker.test now ok');
    expect(composeDraft({ ...base, answering: 'Re: your\r\n letter' }).subject).toBe('Re: your letter');
  });

  it('writes a subject the owner may approve unchanged: a longest title and arrangement are cut short', () => {
    const title = `Pay ${'the invoice '.repeat(41)}`.slice(0, TEXT_MAX.title);
    for (const permission of ['money', 'reach_out', 'chase', 'file', 'commit', null]) {
      const { subject } = composeDraft({ ...base, permission, title, about: 'a'.repeat(SETUP_TEXT_MAX.name) });
      expect(Array.from(subject)).toHaveLength(MESSAGE_MAX.subject);
      expect(subject.endsWith('…')).toBe(true);
    }
    const reply = composeDraft({ ...base, answering: `Re: ${'x'.repeat(1_000)}` }).subject;
    expect(reply).toBe(`Re: ${'x'.repeat(MESSAGE_MAX.subject - 5)}…`);
    // One that fits is left whole.
    const fits = 'f'.repeat(MESSAGE_MAX.subject - 'Filing: '.length);
    expect(composeDraft({ ...base, permission: 'file', title: fits, about: null }).subject).toBe(`Filing: ${fits}`);
  });

  it('a first contact names the person, the title, the arrangement and the due date, and is addressed to the contact', () => {
    const d = composeDraft(base);
    expect(d.channel).toBe('email');
    expect(d.to).toBe('priya@landlord.test');
    expect(d.subject).toBe('Renew the shop lease (High Street lease)');
    expect(d.body).toMatch(/^Hello Priya Shah,/);
    expect(d.body).toContain('I am getting in touch about the following for High Street lease: renew the shop lease.');
    expect(d.body).toContain('It is due on 2026-12-01.');
    expect(d.body).not.toMatch(/\bdays?\b/);
    expect(d.body.trimEnd()).toMatch(/Corner Bakery Ltd$/);
  });

  it('says nothing about a date or an arrangement the row does not have', () => {
    const d = composeDraft({ ...base, due_date: null, about: null, contact_name: null, permission: null });
    expect(d.subject).toBe('Renew the shop lease');
    expect(d.body).toMatch(/^Hello,/);
    expect(d.body).not.toMatch(/due/i);
    expect(d.body).not.toContain(' for ');
  });

  it('an overdue date is stated as overdue, by its date alone, which holds whenever the message goes', () => {
    expect(composeDraft({ ...base, due_date: '2026-11-20' }).body).toContain('It was due on 2026-11-20.');
    expect(composeDraft({ ...base, due_date: '2026-11-22' }).body).toContain('It is due on 2026-11-22.');
    expect(composeDraft({ ...base, due_date: '2026-11-20' }).body).not.toMatch(/\bdays?\b|today/);
  });

  it('a chase says since when the row has been waiting', () => {
    const d = composeDraft({
      ...base,
      permission: 'chase',
      waiting_on: 'Priya Shah',
      waiting_since: '2026-11-10',
    });
    expect(d.subject).toBe('Following up: Renew the shop lease');
    expect(d.body).toContain('We have been waiting on an answer since 2026-11-10.');
    expect(d.body).not.toMatch(/\bdays?\b/);
    const sameDay = composeDraft({ ...base, permission: 'chase', waiting_on: 'Priya Shah', waiting_since: base.today });
    expect(sameDay.body).not.toContain('waiting on an answer');
  });

  it('file, commit and money rows get a cover note, a confirmation and a payment question', () => {
    expect(composeDraft({ ...base, permission: 'file' }).subject).toBe('Filing: Renew the shop lease');
    expect(composeDraft({ ...base, permission: 'commit' }).body).toContain(
      'I am writing to confirm the following for High Street lease: renew the shop lease.',
    );
    const money = composeDraft({ ...base, permission: 'money' });
    expect(money.subject).toBe('Payment question: Renew the shop lease');
    expect(money.body).toContain('confirm the amount owed');
  });

  it('quotes at most the three newest notes, shortened, and skips blank ones', () => {
    const long = 'x'.repeat(500);
    const d = composeDraft({ ...base, notes: ['Newest: call on Tuesdays', '  ', long, 'Third', 'Fourth is left out'] });
    expect(d.body).toContain('- Newest: call on Tuesdays');
    expect(d.body).toContain('- Third');
    expect(d.body).not.toContain('Fourth is left out');
    expect(d.body).toContain(`- ${'x'.repeat(299)}…`);
    expect(d.body).not.toContain('x'.repeat(300));
  });

  it('shortens a note by whole characters, never half an emoji', () => {
    const d = composeDraft({ ...base, notes: ['🍞'.repeat(400)] });
    const quoted = d.body.split('\n').find((l) => l.startsWith('- '))!;
    expect(quoted).toBe(`- ${'🍞'.repeat(299)}…`);
    expect(d.body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it("ends the opening sentence once, with the title's own question mark or trailing off", () => {
    expect(composeDraft({ ...base, title: 'Is the lease renewed?' }).body).toContain(
      'the following for High Street lease: Is the lease renewed? It is due on 2026-12-01.',
    );
    expect(composeDraft({ ...base, title: 'Lease renewal…' }).body).toContain(
      'High Street lease: Lease renewal… It is due',
    );
    expect(composeDraft({ ...base, title: 'Renew the shop lease!' }).body).toContain(
      'High Street lease: renew the shop lease. It is due',
    );
    const chase = composeDraft({
      ...base,
      title: 'Is it signed?',
      permission: 'chase',
      waiting_on: 'Priya Shah',
      waiting_since: '2026-11-10',
    });
    expect(chase.body).toContain('I am following up on this for High Street lease: Is it signed? We have been waiting');
  });
});

describe('a prepared message greeting a contact whose name changed', () => {
  const body = composeDraft(base).body;
  const rest = body.slice('Hello Priya Shah,'.length);
  it.each([
    ['a new name', 'Priya Shah', 'Priya Patel', `Hello Priya Patel,${rest}`],
    ['a name cleared', 'Priya Shah', null, `Hello,${rest}`],
    ['a name the old one had around it in spaces', ' Priya Shah ', 'Sam', `Hello Sam,${rest}`],
  ])('%s', (_name, from, to, expected) => {
    expect(regreet(body, from, to)).toBe(expected);
  });

  it('a name given where there was none greets it', () => {
    const plain = composeDraft({ ...base, contact_name: null }).body;
    expect(regreet(plain, null, 'Priya Shah')).toBe(body);
  });

  it('leaves a greeting the owner rewrote, one that only starts alike, and a name unchanged', () => {
    expect(regreet(`Dear Priya,${rest}`, 'Priya Shah', 'Priya Patel')).toBeNull();
    expect(regreet(body.replace('Hello Priya Shah,', 'Hello Priya Shahnaz,'), 'Priya Shah', 'Sam')).toBeNull();
    expect(regreet(body, 'Priya Shah', ' Priya Shah')).toBeNull();
  });
});
