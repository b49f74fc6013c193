import { describe, expect, it } from 'vitest';
import { inboxFields, mailboxInput, portalInput, securityOf } from './mailbox-form.ts';
import { mailboxSettings } from '../mail/settings.ts';
import { addressOf } from './smtp-settings.ts';
import { fieldLines, linesOf } from './save-unit.ts';
import { readFormEntry, formEntry } from '../business/form.ts';
import { readWatch, WATCH_FIELDS } from '../business/read.ts';
import { DeskError } from '../errors.ts';
import { WATCH_LABELS } from '../watches/save.ts';

// How the owner's forms become what the store keeps, and back.

describe('the mailbox form', () => {
  it.each([
    ['starttls', { secure: false, starttls: true }],
    ['tls', { secure: true, starttls: true }],
    ['none', { secure: false, starttls: false }],
  ] as const)('security %s is stored as the mailer reads it, and reads back the same', (security, stored) => {
    const input = mailboxInput({ security, host: ' smtp.test ', port: '587', pass: '' });
    expect(input.config).toMatchObject({ ...stored, host: 'smtp.test', port: 587, pass: '' });
    expect(securityOf(input.config)).toBe(security);
  });

  it('keeps a port that is not a number as typed, for the save to refuse in words', () => {
    expect(mailboxInput({ port: 'five' }).config.port).toBe('five');
  });

  it('refuses a security choice the form does not offer', () => {
    expect(() => mailboxInput({ security: 'ssl3' })).toThrow(DeskError);
  });

  it('stores the inbox as the reader reads it, and draws it back without the password', () => {
    const input = mailboxInput({
      imap_host: ' imap.test ',
      imap_port: '1143',
      imap_security: 'none',
      imap_user: ' desk ',
      imap_pass: 's3cret',
      imap_mailbox: ' Replies ',
    });
    expect(input.config.imap).toEqual({
      host: 'imap.test',
      port: 1143,
      secure: false,
      user: 'desk',
      pass: 's3cret',
      mailbox: 'Replies',
    });
    expect(mailboxSettings(input.config)).toEqual({
      host: 'imap.test',
      port: 1143,
      secure: false,
      user: 'desk',
      pass: 's3cret',
      mailbox: 'Replies',
    });
    const drawn = inboxFields(input.config);
    expect(drawn).toEqual({
      imap_host: 'imap.test',
      imap_port: '1143',
      imap_security: 'none',
      imap_user: 'desk',
      imap_mailbox: 'Replies',
    });
    expect(JSON.stringify(drawn)).not.toContain('s3cret');
  });

  it.each([
    ['tls', 993],
    ['none', 143],
  ] as const)('an empty inbox port over %s is the usual %i, an empty folder the INBOX', (security, port) => {
    const imap = mailboxInput({ imap_host: 'imap.test', imap_security: security, imap_user: 'u', imap_port: ' ' })
      .config.imap as Record<string, unknown>;
    expect(imap).toMatchObject({ port, secure: security === 'tls', mailbox: 'INBOX', pass: '' });
  });

  it('removes the inbox when its fields are empty, and leaves it alone when the form has none', () => {
    expect(mailboxInput({ imap_host: '', imap_user: ' ', imap_pass: '', imap_port: '993' }).config.imap).toBeNull();
    expect(mailboxInput({ host: 'smtp.test' }).config).not.toHaveProperty('imap');
  });

  it('keeps an inbox port that is not a number as typed, and refuses a security it does not offer', () => {
    expect(mailboxInput({ imap_host: 'imap.test', imap_port: 'nine' }).config.imap).toMatchObject({ port: 'nine' });
    try {
      mailboxInput({ imap_host: 'imap.test', imap_security: 'starttls' });
      expect.unreachable();
    } catch (err) {
      expect((err as DeskError).details?.fields).toEqual({ imap_security: 'Choose TLS or none.' });
    }
  });

  it('draws a mailbox without an inbox with the usual port, TLS and the INBOX', () => {
    expect(inboxFields({ host: 'smtp.test' })).toEqual({
      imap_host: '',
      imap_port: '993',
      imap_security: 'tls',
      imap_user: '',
      imap_mailbox: 'INBOX',
    });
  });

  it('reads the playbook boxes of a sign-in', () => {
    const input = portalInput({ name: 'Tax', portal: 'gov', username: 'u', 'playbook-4': 'yes', 'playbook-x': 'yes' });
    expect(input.playbooks).toEqual([4]);
    expect(input.config).toEqual({ username: 'u', password: '' });
  });

  it.each([
    ['shop@example.test', 'shop@example.test'],
    ['Corner Bakery <owner@bakery.test>', 'owner@bakery.test'],
    ['Corner Bakery', null],
    ['a b@c', null],
    // A line break would end the From header and begin another.
    ['Evil\r\nBcc: x <victim@x.test>', null],
  ])('the address in %j', (from, address) => {
    expect(addressOf(from)).toBe(address);
  });
});

describe('unit columns, one a line', () => {
  it('reads name: value lines, a blank value as null, and writes them back the same', () => {
    const r = fieldLines('lease_end: 2027-03-31\n\n note : a: b \nempty:');
    expect(r).toEqual({ fields: { lease_end: '2027-03-31', note: 'a: b', empty: null }, problem: null });
    expect(fieldLines(linesOf(r.fields)).fields).toEqual(r.fields);
  });

  it.each([
    ['no colon', 'lease_end 2027', 'Line 1 ("lease_end 2027") needs a name and a value'],
    ['no name', ': 2027', 'needs a name and a value'],
    ['twice', 'a: 1\na: 2', '"a" is given twice'],
  ])('says what is wrong: %s', (_name, text, problem) => {
    expect(fieldLines(text).problem).toContain(problem);
  });
});

describe('a form read by the business file rules', () => {
  it('gives every field its error in words, by field', () => {
    const raw = formEntry({ label: 'MOT', subject_type: '', lead_days: 'lots', priority: '500' }, [
      'lead_days',
      'priority',
    ]);
    try {
      readFormEntry('watch', raw, WATCH_FIELDS, '2026-11-22', readWatch);
      expect.unreachable();
    } catch (err) {
      expect((err as DeskError).details?.fields).toEqual({
        subject_type: 'Subject type is required.',
        field: 'Field is required.',
        lead_days: 'Lead days: "lots" is not a whole number.',
        kind: 'Kind is required.',
        action: 'Action is required: one of reach_out, chase, file, commit, money, sign.',
        priority: 'Priority: 500 must be between 1 and 100.',
      });
    }
  });

  it("names a field by the form's own label where it gives one", () => {
    const raw = formEntry({ label: 'MOT', lead_days: 'lots' }, ['lead_days']);
    try {
      readFormEntry('watch', raw, WATCH_FIELDS, '2026-11-22', readWatch, {}, WATCH_LABELS);
      expect.unreachable();
    } catch (err) {
      expect((err as DeskError).details?.fields).toMatchObject({
        subject_type: 'Unit type is required.',
        field: 'Date column is required.',
        lead_days: 'Days ahead: "lots" is not a whole number.',
        kind: 'Kind of work is required.',
        action: 'Permission class of the work is required: one of reach_out, chase, file, commit, money, sign.',
      });
    }
  });
});
