import stringWidth from 'string-width';
import { gotoFault, STEP_NAMES, stepTextFault, type PlaybookStep } from '../playbooks.ts';
import {
  dateIn,
  FIRST_DAY,
  isBeforeFirstDay,
  isDateShaped,
  isIsoDate,
  isTimeZone,
  resolveDate,
  spelledZone,
} from '../dates.ts';
import { badRequest } from '../errors.ts';
import {
  ARRANGEMENT_STATUSES,
  DOMAIN_STATUSES,
  OUTBOUND_STATUSES,
  PERMISSION_CLASSES,
  SECTION_KINDS,
  WORK_STATUSES,
  isFinished,
  type PermissionClass,
  type SectionKind,
  type WorkStatus,
} from '../vocab.ts';
import { byPlace, Entry, entryName, FileErrors, isObject, placeOf, type Place, type Raw } from './fields.ts';
import { jsonFault, lineAndColumn } from './json.ts';
import { readYaml } from './yaml.ts';
import { refuseUnstorable } from './unstorable.ts';
import {
  breaksLine,
  closeDirections,
  controlCharacterAt,
  echoed,
  echoedJson,
  lineWrittenOut,
  plural,
  unstorableIn,
} from '../text.ts';
import { DEFAULT_HOURS } from '../desks/hours.ts';
import { isSlug, slugFault } from '../desks/slug.ts';
import { BLOCK_FIELDS_MAX, BLOCK_KINDS_MAX, SECTIONS_MAX } from '../desks/sections.ts';
import { isStoredAddress, notAnAddress } from '../mail/address.ts';
import { railErrors } from '../desks/rails.ts';
import { smtpFaults } from '../desks/smtp-settings.ts';
import { MESSAGE_MAX, SETUP_TEXT_MAX, TEXT_MAX } from '../limits.ts';
import { ungrantableReason } from '../grants/manage.ts';
import { everyCount } from '../watches/schedule.ts';

// Reads a business file (YAML or JSON) into a plan the importer writes in one transaction.
// Every error names the entry and the field; a file with any error yields no plan at all.

export interface DeskPlan {
  name: string;
  slug: string;
  plan: string;
  timezone: string;
  currency: string;
  broker: string | null;
  hours: string;
  daily_cap: number;
  act_within_days: number;
  paused: boolean;
}
export interface ConnectionPlan {
  ref: string | null;
  provider: string;
  name: string;
  category: string;
  auth_type: string;
  status: string;
  config: Raw;
}
export interface SectionPlan {
  id: string;
  title: string;
  blurb: string;
  kind: SectionKind;
  kinds: string[];
  unit: string | null;
  fields: Array<{ name: string; hint: string }>;
  why: string;
}
export interface UnitPlan {
  ref: string | null;
  type: string;
  name: string;
  fields: Record<string, string | number | null>;
  arrangement: string | null;
}
export interface ArrangementPlan {
  ref: string | null;
  name: string;
  counterparty: string | null;
  kind: string;
  status: string;
  starts_on: string | null;
  ends_on: string | null;
  renews_on: string | null;
  amount_cents: number | null;
  currency: string | null;
  contact_name: string | null;
  contact_email: string | null;
}
export interface WatchPlan {
  subject_type: string;
  field: string;
  label: string;
  lead_days: number;
  kind: string;
  action: PermissionClass;
  every: string | null;
  priority: number;
}
export interface DomainPlan {
  name: string;
  registrar: string;
  status: string;
  renewal_on: string | null;
  amount_cents: number;
  currency: string;
  broker_name: string | null;
  notes: string | null;
}
export interface PlaybookPlan {
  name: string;
  connection: string | null;
  steps: PlaybookStep[];
}
export interface MessagePlan {
  status: string;
  channel: string;
  subject: string | null;
  body: string;
  to: string | null;
  actor: string;
  /** The day a sent message went; null when the file does not say. */
  sent_at: string | null;
}
export interface WorkPlan {
  ref: string | null;
  title: string;
  detail: string | null;
  kind: string;
  status: WorkStatus;
  due_date: string | null;
  priority: number;
  class: PermissionClass | null;
  needs_person: boolean;
  chase_after_days: number;
  max_chases: number;
  /** Chases already sent to whoever the row waits on. */
  chases: number;
  contact_name: string | null;
  contact_email: string | null;
  waiting_on: string | null;
  waiting_since: string | null;
  /** A reply that waits to be read: who wrote it, and the day it came. */
  replied_by: string | null;
  replied_at: string | null;
  /** The day a done or closed row was finished; null when the file does not say. */
  closed_at: string | null;
  last_error: string | null;
  arrangement: string | null;
  unit: string | null;
  playbook: string | null;
  messages: MessagePlan[];
}

export interface BusinessPlan {
  desk: DeskPlan;
  grants: PermissionClass[];
  connections: ConnectionPlan[];
  sections: SectionPlan[];
  units: UnitPlan[];
  arrangements: ArrangementPlan[];
  watches: WatchPlan[];
  domains: DomainPlan[];
  playbooks: PlaybookPlan[];
  work: WorkPlan[];
}

const TOP = [
  'desk',
  'grants',
  'connections',
  'sections',
  'units',
  'arrangements',
  'watches',
  'domains',
  'playbooks',
  'work',
];
export const ARRANGEMENT_FIELDS = [
  'ref',
  'name',
  'counterparty',
  'kind',
  'status',
  'starts_on',
  'ends_on',
  'renews_on',
  'amount_cents',
  'currency',
  'contact_name',
  'contact_email',
] as const;
export const UNIT_FIELDS = ['ref', 'type', 'name', 'fields', 'arrangement'] as const;
export const WATCH_FIELDS = [
  'subject_type',
  'field',
  'label',
  'lead_days',
  'kind',
  'action',
  'every',
  'priority',
] as const;

const IMAP_FIELDS = ['host', 'port', 'secure', 'user', 'pass', 'mailbox'];
/** A mailbox's sending settings, as the mailbox form keeps them, and its reading part. */
const SMTP_FIELDS = ['host', 'port', 'secure', 'starttls', 'user', 'pass', 'from', 'imap'];

/** A mailbox's `imap` part: where the desk reads replies (P-mail-4). Port 993 over TLS unless told. */
function readImap(e: Entry, raw: unknown): Raw {
  if (!isObject(raw)) {
    e.fail('', 'must be a mapping with host, port, secure, user, pass and mailbox');
    return {};
  }
  const secure = e.has('secure') ? e.flag('secure') : !e.has('port') || e.raw.port === 993;
  return {
    host: e.text('host', { required: true, max: 253 }),
    port: e.integer('port', { min: 1, max: 65535, fallback: secure ? 993 : 143 }),
    secure,
    user: e.text('user', { max: 320 }),
    pass: e.text('pass', { max: 1000 }),
    mailbox: e.text('mailbox', { max: 200 }) ?? 'INBOX',
  };
}

/**
 * A mailbox's port and security written as text ("587", "true"), as files the desk exported
 * before they were checked may hold them and as the mailer read them: taken as the number and
 * the flag they spell. Other text stays, to be refused.
 */
function writtenAsText(config: Raw): void {
  if (typeof config.port === 'string' && /^\s*\d{1,5}\s*$/.test(config.port)) config.port = Number(config.port);
  for (const flag of ['secure', 'starttls'])
    if (typeof config[flag] === 'string' && /^\s*(true|false)\s*$/i.test(config[flag] as string))
      config[flag] = (config[flag] as string).trim().toLowerCase() === 'true';
}

// "an arrangement", "a unit": the words a ref can name.
/**
 * A ref or a name another entry points at, in one Unicode form (NFC): "Café" typed with its
 * accent as one character in one place and as two in another looks the same, and is the same.
 */
function asName<T extends string | null>(text: T): T {
  return (text === null ? null : text.normalize('NFC')) as T;
}

const article = (word: string) => (/^(?:[aeio]|u(?!ni))/i.test(word) ? 'an' : 'a');

/**
 * The plan a business file's text reads as. `slug` stands in for the file's own desk slug
 * (a copy of an exported desk), and is checked as the file's would be.
 */
export function planFromText(text: string, opts: { now: Date; source?: string; slug?: string }): BusinessPlan {
  const raw = parseBusinessText(text, opts.source);
  if (opts.slug !== undefined && raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const desk = (raw as Record<string, unknown>).desk;
    if (desk && typeof desk === 'object' && !Array.isArray(desk)) (desk as Record<string, unknown>).slug = opts.slug;
  }
  return readBusiness(raw, opts.now);
}

/**
 * Whether the text is JSON: a file named `.json`, or text with no YAML name (standard input,
 * a file given on the screen) that opens with `{`. `source` is the file's name where it has one.
 */
export function readsAsJson(source: string, text: string): boolean {
  if (/\.json$/i.test(source)) return true;
  if (/\.ya?ml$/i.test(source)) return false;
  return /^\uFEFF?\s*\{/.test(text);
}

/**
 * Parses the file's text: JSON strictly (json.ts), anything else as YAML.
 */
export function parseBusinessText(file: string, source = 'the file'): unknown {
  // A byte-order mark says how the file is written and is no part of it: columns count without it.
  const text = file.replace(/^\uFEFF/, '');
  if (readsAsJson(source, text)) return parseJson(text, source, !/\.json$/i.test(source));
  // Refused before the YAML reader sees it: its excerpt of a file of null bytes takes each as a
  // line of its own, and a large one runs the process out of memory.
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    const at = lineAndColumn(text, nul);
    throw badRequest(
      `${source} is not YAML or JSON: it holds a null byte at line ${at.line}, column ${at.col}, which a text file does not.${pointAt(text, at)}`,
    );
  }
  let read: ReturnType<typeof readYaml>;
  try {
    read = readYaml(text);
  } catch (err) {
    throw badRequest(`${source} is not YAML or JSON: ${String(err)}`);
  }
  if ('fault' in read) throw badRequest(`${source} is not YAML or JSON: ${read.fault}${pointAt(text, read.at)}`);
  return read.value;
}

/** `guessed`: JSON only because the text opens with `{`, which a YAML flow mapping does too. */
function parseJson(text: string, source: string, guessed = false): unknown {
  const yaml = guessed
    ? '\nIt opens with {, so it was read as JSON; a YAML file is read as YAML when its name ends in .yaml.'
    : '';
  const fault = jsonFault(text);
  if (fault) {
    const at = lineAndColumn(text, fault.at);
    throw badRequest(
      `${source} is not JSON: line ${at.line}, column ${at.col}: ${fault.what}.${pointAt(text, at)}${yaml}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`${source} is not JSON: ${err instanceof Error ? err.message : String(err)}.${yaml}`);
  }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Whether a flag's half (a regional indicator) starts at `i`. */
const isFlagHalf = (text: string, i: number) => {
  const c = text.codePointAt(i);
  return c !== undefined && c >= 0x1f1e6 && c <= 0x1f1ff;
};

/** The start of the character as drawn (the grapheme) that holds `i`. */
function clusterStart(text: string, i: number): number {
  if (i <= 0 || i >= text.length) return i;
  const low = (k: number) => {
    const c = text.charCodeAt(k);
    return c >= 0xdc00 && c <= 0xdfff;
  };
  const at = low(i) ? i - 1 : i;
  // Flags pair their halves from the start of a run of them, however long the run: counted here,
  // as a segmenter asked about the middle of a long run reads the run again for each answer.
  if (isFlagHalf(text, at)) {
    let first = at;
    while (first >= 2 && isFlagHalf(text, first - 2)) first -= 2;
    return ((at - first) / 2) % 2 === 0 ? at : at - 2;
  }
  let lo = Math.max(0, i - 64);
  if (lo > 0 && low(lo)) lo -= 1;
  let start = lo;
  for (const { index } of graphemes.segment(text.slice(lo, Math.min(text.length, i + 64)))) {
    if (lo + index > i) break;
    start = lo + index;
  }
  return start;
}

/** The line the parser stopped on, and a caret under the place. */
function pointAt(text: string, at: { line: number; col: number } | undefined): string {
  if (!at) return '';
  const lines = text.split(/\r\n?|\n/);
  const line = Math.min(at.line, lines.length);
  const whole = lines[line - 1] ?? '';
  const col = line === at.line ? at.col : whole.length + 1;
  // A long line (a file written on one line, as programs write JSON) is shown around the place,
  // so that the message stays a few lines whatever the file's size.
  let from = whole.length > SHOWN_MAX ? Math.max(0, Math.min(col - 1 - SHOWN_MAX / 2, whole.length - SHOWN_MAX)) : 0;
  let to = Math.min(whole.length, from + SHOWN_MAX);
  // The window never cuts a character as it is drawn in two: an emoji, a flag, a family.
  from = clusterStart(whole, from);
  to = clusterStart(whole, to);
  const before = from > 0 ? '…' : '';
  const shown = `${before}${lineWrittenOut(whole.slice(from, to))}${to < whole.length ? '…' : ''}`;
  const gutter = `  ${line} | `;
  // Under the place as the line is shown: characters written out take their written width, and
  // a wide (CJK) character two places.
  const caret = ' '.repeat(stringWidth(before + lineWrittenOut(whole.slice(from, Math.max(from, col - 1)))));
  return `\n${gutter}${shown}\n${' '.repeat(gutter.length - 2)}| ${caret}^`;
}

/** The most of one line an error shows. */
const SHOWN_MAX = 100;

/** Checks a parsed business file and resolves its dates against the desk's today. Throws a bad_request listing every error. */
export function readBusiness(doc: unknown, now: Date): BusinessPlan {
  const errors = new FileErrors();
  if (!isObject(doc))
    throw badRequest('The business file must be a mapping with at least a "desk" entry.', {
      errors: ['the file is not a mapping'],
    });
  // Each error is placed by its section's position in the file, then its entry's, then its field's.
  const section = (name: string): Place => [placeOf(doc, name)];
  for (const key of Object.keys(doc))
    if (!TOP.includes(key) && unstorableIn(key) === null)
      errors.add(key, `unknown section; the sections are ${TOP.join(', ')}`, undefined, section(key));
  refuseUnstorable(doc, errors);

  const deskRaw = isObject(doc.desk) ? doc.desk : null;
  if (!deskRaw) errors.add('desk', 'is required: a mapping with name and slug', undefined, section('desk'));
  // The zone as readDesk keeps it (trimmed, spelled as the zone database spells it), so that
  // "today" in the file is the desk's own today.
  const zone = typeof deskRaw?.timezone === 'string' ? spelledZone(deskRaw.timezone.trim()) : 'UTC';
  const tz = isTimeZone(zone) ? zone : 'UTC';
  const today = dateIn(tz, now);
  const entry = (where: string, raw: Raw, fields: readonly string[], at: Place) =>
    new Entry(where, raw, errors, today, fields, at);

  const desk = readDesk(
    deskRaw
      ? entry(
          'desk',
          deskRaw,
          ['name', 'slug', 'plan', 'timezone', 'currency', 'broker', 'hours', 'daily_cap', 'act_within_days', 'paused'],
          section('desk'),
        )
      : null,
  );
  // Every ref, and the kind of entry holding it; one used twice is said of the later entry in
  // the file, once all are read, naming the entry that holds it first.
  const refs = new Map<string, string>();
  const refUses: Array<{ r: string; kind: string; e: Entry }> = [];
  const ref = (e: Entry, kind: string): string | null => {
    const r = asName(e.text('ref'));
    if (r !== null) refUses.push({ r, kind, e });
    return r;
  };
  // The entry each read value came from, so that a check made once all are read (a reference,
  // a name used twice) is said of that entry and placed with its other errors.
  const entries = new Map<object, Entry>();
  const entryOf = (value: object) => entries.get(value)!;
  const each = <T extends object>(list: string, fields: readonly string[], read: (e: Entry) => T): T[] => {
    const v = doc[list];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      errors.add(list, 'must be a list', undefined, section(list));
      return [];
    }
    return v.flatMap((raw, i) => {
      const where = entryName(list, i, raw);
      const at = [...section(list), i];
      if (!isObject(raw)) {
        errors.add(where, 'must be a mapping of fields', undefined, at);
        return [];
      }
      const e = entry(where, raw, fields, at);
      const value = read(e);
      entries.set(value, e);
      return [value];
    });
  };

  const grants = readGrants(doc.grants, errors, section('grants'));
  const connections = each(
    'connections',
    ['ref', 'provider', 'name', 'category', 'auth_type', 'status', 'config'],
    (e) => {
      const category = e.text('category', { required: true, max: SETUP_TEXT_MAX.category });
      const config = e.object('config') ?? {};
      const smtp = typeof e.raw.provider === 'string' && e.raw.provider.trim() === 'smtp';
      // The mailer reads only these: a misspelt one (`pasword`, `form`, `secrue`) would be kept
      // and the mailbox would go without it, found only when a message failed or went unguarded.
      if (smtp) entry(`${e.where}.config`, config, SMTP_FIELDS, e.place('config'));
      // Settings go into mail headers and server commands, a line each.
      const broken = controlCharacterAt(config);
      if (broken) e.fail('config', `${broken} holds a line break or another control character`);
      // A mailbox's sending settings keep the mailbox form's rules: a port the mailer could not
      // use, or `secure: yes` (text, read as no), would be found only when a message failed.
      else if (smtp) {
        writtenAsText(config);
        for (const [setting, fault] of Object.entries(smtpFaults(config, { mayLeaveOut: true })))
          e.fail(`config.${setting}`, fault);
      }
      if (category === 'mail' && config.imap !== undefined && config.imap !== null) {
        // Its reading settings take a port and security written as text as its sending settings do.
        if (isObject(config.imap)) writtenAsText(config.imap);
        config.imap = readImap(
          entry(`${e.where}.config.imap`, isObject(config.imap) ? config.imap : {}, IMAP_FIELDS, [
            ...e.place('config'),
            placeOf(config, 'imap'),
          ]),
          config.imap,
        );
      }
      return {
        ref: ref(e, 'connection'),
        provider: e.text('provider', { required: true, max: SETUP_TEXT_MAX.provider }),
        name: e.text('name', { required: true, max: SETUP_TEXT_MAX.name }),
        category,
        auth_type: e.text('auth_type') ?? 'token',
        status: e.text('status') ?? 'pending',
        config,
      };
    },
  );
  const sections = each('sections', ['id', 'title', 'blurb', 'kind', 'kinds', 'unit', 'fields', 'why'], (e) =>
    readSection(e),
  );
  if (sections.length > SECTIONS_MAX)
    errors.add(
      'sections',
      `lists ${sections.length} blocks; a desk page holds at most ${SECTIONS_MAX}`,
      undefined,
      section('sections'),
    );
  const sectionIds = new Set<string>();
  for (const s of sections) {
    const e = entryOf(s);
    if (sectionIds.has(s.id)) e.fail('id', `"${echoed(s.id)}" is used twice`);
    sectionIds.add(s.id);
  }
  const units = each('units', UNIT_FIELDS, (e) => ({ ref: ref(e, 'unit'), ...readUnit(e, today) }));
  const arrangements = each('arrangements', ARRANGEMENT_FIELDS, (e) =>
    readArrangement(e, ref(e, 'arrangement'), desk.currency),
  );
  const watches = each('watches', WATCH_FIELDS, (e) => readWatch(e));
  const domains = each(
    'domains',
    ['name', 'registrar', 'status', 'renewal_on', 'amount_cents', 'currency', 'broker_name', 'notes'],
    (e) => ({
      name: e.text('name', { required: true }),
      registrar: e.text('registrar', { required: true }),
      status: e.oneOf('status', DOMAIN_STATUSES, 'live'),
      renewal_on: e.date('renewal_on'),
      amount_cents: e.integer('amount_cents', { min: 0, fallback: 0 }),
      currency: currencyOf(e, 'currency') ?? desk.currency,
      broker_name: e.text('broker_name'),
      notes: e.text('notes'),
    }),
  );
  // The domains page adds up what is owed: a total past 2^53 - 1 could not be given exactly.
  const amounts = domains.reduce((sum, d) => sum + BigInt(d.amount_cents ?? 0), 0n);
  if (amounts > BigInt(Number.MAX_SAFE_INTEGER))
    errors.add(
      'domains',
      `amounts add up to ${amounts} minor units; together they may come to at most ${Number.MAX_SAFE_INTEGER}, the largest total given exactly`,
      undefined,
      section('domains'),
    );
  const playbooks = each('playbooks', ['name', 'connection', 'steps'], (e) => ({
    name: asName(e.text('name', { required: true, max: SETUP_TEXT_MAX.name })),
    connection: asName(e.text('connection')),
    steps: readSteps(e),
  }));
  const work = each(
    'work',
    [
      'ref',
      'title',
      'detail',
      'kind',
      'status',
      'due',
      'priority',
      'class',
      'needs_person',
      'chase_after_days',
      'max_chases',
      'chases',
      'contact_name',
      'contact_email',
      'waiting_on',
      'waiting_since',
      'replied_by',
      'replied_at',
      'closed_at',
      'last_error',
      'arrangement',
      'unit',
      'playbook',
      'messages',
    ],
    (e) => readWork(e, ref(e, 'work'), errors),
  );

  const firstUse = new Map<string, Entry>();
  for (const { r, kind, e } of refUses.sort((a, b) => byPlace(a.e.place('ref'), b.e.place('ref')))) {
    const first = firstUse.get(r);
    if (first) e.fail('ref', `"${echoed(r)}" is already the ref of ${first.where}`);
    else {
      firstUse.set(r, e);
      refs.set(r, kind);
    }
  }

  // References: each must name an entry of the right kind.
  const playbookNames = new Set(playbooks.map((p) => p.name));
  const point = (value: object, field: string, target: string | null, kind: string) => {
    if (target === null) return;
    const found = refs.get(target);
    if (found !== kind)
      entryOf(value).fail(
        field,
        found
          ? `"${echoed(target)}" is ${article(found)} ${found}, not ${article(kind)} ${kind}`
          : `no ${kind} has ref "${echoed(target)}"`,
      );
  };
  for (const u of units) point(u, 'arrangement', u.arrangement, 'arrangement');
  for (const p of playbooks) point(p, 'connection', p.connection, 'connection');
  const names = new Set<string>();
  for (const p of playbooks) {
    const e = entryOf(p);
    if (names.has(p.name)) e.fail('name', `"${echoed(p.name)}" is used twice`);
    names.add(p.name);
  }
  for (const w of work) {
    point(w, 'arrangement', w.arrangement, 'arrangement');
    point(w, 'unit', w.unit, 'unit');
    if (w.playbook !== null && !playbookNames.has(w.playbook))
      entryOf(w).fail('playbook', `no playbook is named "${echoed(w.playbook)}"`);
  }

  const list = errors.list;
  if (list.length > 0) {
    const n = list.length;
    throw badRequest(
      `The business file has ${plural(n, 'error')}; nothing was written. ${list[0]}${n > 1 ? ` (and ${n - 1} more)` : ''}`,
      { errors: list },
    );
  }
  return { desk, grants, connections, sections, units, arrangements, watches, domains, playbooks, work };
}

function currencyOf(e: Entry, field: string): string | null {
  const c = e.text(field);
  if (c !== null && !/^[A-Za-z]{3}$/.test(c)) e.fail(field, `"${echoed(c)}" is not a three-letter currency code`);
  return c?.toUpperCase() ?? null;
}

function email(e: Entry, field: string): string | null {
  const v = e.text(field, { max: TEXT_MAX.contact_email });
  if (v !== null && !isStoredAddress(v)) e.fail(field, notAnAddress(v));
  return v;
}

function readDesk(e: Entry | null): DeskPlan {
  if (!e)
    return {
      name: '',
      slug: '',
      plan: 'standard',
      timezone: 'UTC',
      currency: 'GBP',
      broker: null,
      hours: DEFAULT_HOURS,
      daily_cap: 20,
      act_within_days: 14,
      paused: false,
    };
  const slug = e.text('slug', { required: true });
  if (slug && !isSlug(slug)) e.fail('slug', slugFault(slug));
  const timezone = spelledZone(e.text('timezone') ?? 'UTC');
  if (!isTimeZone(timezone))
    e.fail('timezone', `"${echoed(timezone)}" is not a time zone; use an IANA name such as Europe/London`);
  return {
    name: e.text('name', { required: true, max: SETUP_TEXT_MAX.name }),
    slug,
    plan: e.text('plan') ?? 'standard',
    timezone,
    currency: currencyOf(e, 'currency') ?? 'GBP',
    broker: e.text('broker'),
    ...readRails(e),
  };
}

const RAILS = ['hours', 'daily_cap', 'act_within_days', 'paused'] as const;
export type Rail = (typeof RAILS)[number];

/** The rails a file's `desk` gives; one left out (or null) takes its default. */
export function railsGiven(doc: unknown): Set<Rail> {
  const desk = isObject(doc) && isObject(doc.desk) ? doc.desk : {};
  return new Set(RAILS.filter((f) => desk[f] !== undefined && desk[f] !== null));
}

/** The rails on what the desk does on its own, checked by the same rules as `desk desks set`. */
function readRails(e: Entry): Pick<DeskPlan, 'hours' | 'daily_cap' | 'act_within_days' | 'paused'> {
  const given = Object.fromEntries([...railsGiven({ desk: e.raw })].map((f) => [f, e.raw[f]]));
  const errors = railErrors(given);
  for (const [field, message] of Object.entries(errors)) e.fail(field, message);
  const ok = (f: string) => f in given && !(f in errors);
  return {
    hours: ok('hours') ? String(given.hours).trim().toLowerCase().replace(/\s+/g, ' ') : DEFAULT_HOURS,
    daily_cap: ok('daily_cap') ? (given.daily_cap as number) : 20,
    act_within_days: ok('act_within_days') ? (given.act_within_days as number) : 14,
    paused: ok('paused') ? (given.paused as boolean) : false,
  };
}

function readGrants(raw: unknown, errors: FileErrors, at: Place): PermissionClass[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.add('grants', 'must be a list of permission classes', undefined, at);
    return [];
  }
  const out: PermissionClass[] = [];
  raw.forEach((g, i) => {
    if (typeof g !== 'string' || !(PERMISSION_CLASSES as readonly string[]).includes(g)) {
      errors.add(
        `grants[${i}]`,
        `${echoedJson(g)} is not a permission class; the classes are ${PERMISSION_CLASSES.join(', ')}`,
        undefined,
        [...at, i],
      );
    } else if (ungrantableReason(g) !== null) {
      errors.add(`grants[${i}]`, `"${echoed(g)}" cannot be granted: ${ungrantableReason(g)}`, undefined, [...at, i]);
    } else if (!out.includes(g as PermissionClass)) out.push(g as PermissionClass);
  });
  return out;
}

function readSection(e: Entry): SectionPlan {
  const id = e.text('id', { required: true });
  if (id && !/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/.test(id))
    e.fail('id', `"${echoed(id)}" must be letters, digits, dashes or underscores`);
  const listed = e.list('kinds').flatMap((k, i) => {
    if (typeof k !== 'string' || k.trim() === '') {
      e.fail(`kinds[${i}]`, 'must be text');
      return [];
    }
    return [k.trim()];
  });
  // A kind listed twice is one kind, as in a block made on the screen or in chat.
  const kinds = [...new Set(listed)];
  const fields = e.list('fields').flatMap((f, i) => {
    if (!isObject(f) || typeof f.name !== 'string' || f.name.trim() === '') {
      e.fail(`fields[${i}]`, 'must be a mapping with a name and a hint');
      return [];
    }
    const extra = Object.keys(f).filter((k) => k !== 'name' && k !== 'hint');
    if (extra.length) e.fail(`fields[${i}]`, `unknown field ${extra.join(', ')}; a field has a name and a hint`);
    // Read as the block's other text is: a number as it is written, anything else refused.
    const hint = f.hint ?? '';
    if (typeof hint !== 'string' && typeof hint !== 'number') e.fail(`fields[${i}].hint`, 'must be text');
    return [
      {
        name: f.name.trim(),
        hint: typeof hint === 'string' || typeof hint === 'number' ? closeDirections(String(hint).trim()) : '',
      },
    ];
  });
  if (kinds.length > BLOCK_KINDS_MAX)
    e.fail('kinds', `lists ${kinds.length} kinds; a block collects at most ${BLOCK_KINDS_MAX}`);
  if (fields.length > BLOCK_FIELDS_MAX)
    e.fail('fields', `lists ${fields.length} fields; a block explains at most ${BLOCK_FIELDS_MAX}`);
  return {
    id,
    title: e.text('title', { required: true }),
    blurb: e.text('blurb') ?? '',
    kind: e.oneOf('kind', SECTION_KINDS, 'work'),
    kinds,
    unit: e.text('unit'),
    fields,
    why: e.text('why') ?? '',
  };
}

export function readUnit(e: Entry, today: string): Omit<UnitPlan, 'ref'> {
  return {
    type: e.text('type', { required: true, max: SETUP_TEXT_MAX.type }),
    name: e.text('name', { required: true, max: SETUP_TEXT_MAX.name }),
    fields: readUnitFields(e, today),
    arrangement: asName(e.text('arrangement')),
  };
}

function readUnitFields(e: Entry, today: string): Record<string, string | number | null> {
  const raw = e.object('fields') ?? {};
  // Any text names a field, `__proto__` too: an object of no prototype keeps each as its own.
  const out: Record<string, string | number | null> = Object.create(null);
  for (const [name, v] of Object.entries(raw)) {
    if (v === null) out[name] = v;
    else if (typeof v === 'number') {
      // A number is kept as it was written: not infinity or NaN, nor a whole one past 2^53 that
      // would be stored rounded.
      if (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v)))
        e.fail(`fields.${name}`, `${echoedJson(v)} cannot be kept as a number; write it in quotes to keep it as text`);
      out[name] = v;
    } else if (typeof v === 'string') {
      // Relative dates are fixed at import, like every other date in the file.
      const t = v.trim();
      if (t === 'today' || /^[+-]\d+d$/.test(t)) {
        const day = resolveDate(t, today);
        if (day === null) e.fail(`fields.${name}`, `${echoedJson(v)} falls outside ${FIRST_DAY} to 9999-12-31`);
        out[name] = day;
        continue;
      }
      // Text shaped as a date must be one: a watch on the column would never see "2027-13-40".
      if (isDateShaped(t) && !isIsoDate(t)) e.fail(`fields.${name}`, dateFault(v, t));
      out[name] = t;
    } else if (v instanceof Date) out[name] = v.toISOString().slice(0, 10);
    else e.fail(`fields.${name}`, 'must be text, a number, a date or null');
  }
  return out;
}

/** Why text written as a date is not one the desk keeps: off the calendar, or before its first day. */
function dateFault(v: string, t: string): string {
  return isBeforeFirstDay(t)
    ? `${echoedJson(v)} is before ${FIRST_DAY}, the first day the desk keeps`
    : `${echoedJson(v)} is not a day on the calendar`;
}

export function readArrangement(e: Entry, ref: string | null, deskCurrency: string): ArrangementPlan {
  const amount = e.integer('amount_cents', { min: 0, fallback: null });
  let currency = currencyOf(e, 'currency');
  if (amount !== null && currency === null) currency = deskCurrency;
  // An amount given but refused is its own mistake; the currency beside it is not a second one.
  const amountGiven = e.raw.amount_cents !== undefined && e.raw.amount_cents !== null;
  if (!amountGiven && currency !== null) e.fail('currency', 'is given without amount_cents; the two go together');
  const name = e.text('name', { required: true, max: SETUP_TEXT_MAX.name });
  const counterparty = e.text('counterparty', { max: SETUP_TEXT_MAX.counterparty });
  const kind = e.text('kind', { max: SETUP_TEXT_MAX.kind }) ?? 'general';
  const status = e.oneOf('status', ARRANGEMENT_STATUSES, 'active');
  const starts_on = e.date('starts_on');
  const ends_on = e.date('ends_on');
  // Dates are YYYY-MM-DD, so they compare as text.
  if (starts_on !== null && ends_on !== null && ends_on < starts_on)
    e.fail('ends_on', `${ends_on} is before starts_on ${starts_on}; an arrangement ends on or after the day it starts`);
  return {
    ref,
    name,
    counterparty,
    kind,
    status,
    starts_on,
    ends_on,
    renews_on: e.date('renews_on'),
    amount_cents: amount,
    currency: amount === null ? null : currency,
    contact_name: e.text('contact_name', { max: TEXT_MAX.contact_name }),
    contact_email: email(e, 'contact_email'),
  };
}

/** A watch must say its action. */
function missingAction(e: Entry): 'reach_out' {
  e.fail('action', `is required: one of ${PERMISSION_CLASSES.join(', ')}`);
  return 'reach_out';
}

export function readWatch(e: Entry): WatchPlan {
  // Read by the watches' own rule (P-watches-2): `365`, `30d`, `14 days`; blank or 0 is one-off.
  // Any other word is refused: whoever wrote `yearly` meant something, and one-off is not it.
  let every: string | null = null;
  const raw = e.raw.every;
  if (raw !== undefined && raw !== null) {
    // Text or a number only: a list's text (`[1]` is "1") is no count of days.
    const days = typeof raw === 'string' || typeof raw === 'number' ? everyCount(String(raw)) : null;
    if (days === null)
      e.fail('every', `${echoedJson(raw)} must be a number of days, such as "365" or "30d", or 0 for once`);
    else every = days > 0 ? String(days) : null;
  }
  return {
    subject_type: e.text('subject_type', { required: true, max: SETUP_TEXT_MAX.subject_type }),
    field: e.text('field', { required: true, max: SETUP_TEXT_MAX.field }),
    label: e.text('label', { required: true, max: SETUP_TEXT_MAX.label }),
    lead_days: e.integer('lead_days', { min: 0, max: 3650, fallback: 30 }),
    kind: e.text('kind', { required: true, max: SETUP_TEXT_MAX.kind }),
    action: e.has('action') ? e.oneOf('action', PERMISSION_CLASSES, 'reach_out') : missingAction(e),
    every,
    priority: e.integer('priority', { min: 1, max: 100, fallback: 50 }),
  };
}

function readSteps(e: Entry): PlaybookStep[] {
  const steps = e.list('steps');
  if (steps.length === 0) e.fail('steps', 'must list at least one step');
  for (const [i, s] of steps.entries()) {
    if (!isObject(s)) {
      e.fail(`steps[${i}]`, 'must be a mapping such as { click: "#submit" }');
      continue;
    }
    const names = Object.keys(s).filter((k) => (STEP_NAMES as readonly string[]).includes(k));
    if (names.length !== 1) e.fail(`steps[${i}]`, `must have exactly one of ${STEP_NAMES.join(', ')}`);
    const allowed = new Set([
      ...names,
      ...(names[0] === 'fill' || names[0] === 'select' ? ['value'] : names[0] === 'read' ? ['as'] : []),
    ]);
    const extra = Object.keys(s).filter((k) => !allowed.has(k));
    if (names.length === 1 && extra.length)
      e.fail(`steps[${i}]`, `has fields ${article(names[0]!)} ${names[0]} step does not use: ${extra.join(', ')}`);
    if ((names[0] === 'fill' || names[0] === 'select') && s.value === undefined)
      e.fail(`steps[${i}]`, `a ${names[0]} step needs a value`);
    else if (names[0] === 'read' && s.as === undefined)
      e.fail(`steps[${i}]`, 'a read step needs "as", the name of what it reads');
    else if (names.length === 1) {
      const kind = names[0] as (typeof STEP_NAMES)[number];
      // A number in a file is refused too: read as one, it is no longer what was written
      // (00123456 typed as 123456). A step kept by an earlier build with one still runs.
      const typedNumber = (kind === 'fill' || kind === 'select') && typeof s.value === 'number';
      const notText = typedNumber ? '"value"' : stepTextFault(kind, s);
      if (notText) e.fail(`steps[${i}]`, `${article(kind)} ${kind} step needs ${notText} as text`);
      else if (kind === 'goto') {
        const fault = gotoFault(s.goto as string);
        if (fault) e.fail(`steps[${i}]`, `a goto step ${fault}`);
      }
    }
  }
  return steps as PlaybookStep[];
}

function readWork(e: Entry, ref: string | null, errors: FileErrors): WorkPlan {
  const cls = e.raw.class;
  let klass: PermissionClass | null = null;
  if (cls !== undefined && cls !== null) {
    if (typeof cls !== 'string' || !(PERMISSION_CLASSES as readonly string[]).includes(cls)) {
      e.fail(
        'class',
        `${echoedJson(cls)} is not a permission class; the classes are ${PERMISSION_CLASSES.join(', ')} (or null)`,
      );
    } else klass = cls as PermissionClass;
  }
  const contactEmail = email(e, 'contact_email');
  const status = e.oneOf('status', WORK_STATUSES, 'open');
  // A status refused is no status to hold the row's other fields to: one mistake, one error.
  const known = e.refused('status') ? null : status;
  let firstDraft: number | null = null;
  const messages = e.list('messages').flatMap((m, i) => {
    const where = `${e.where}.messages[${i}]`;
    const at = [...e.place('messages'), i];
    if (!isObject(m)) {
      errors.add(where, 'must be a mapping with at least a body', undefined, at);
      return [];
    }
    const me = new Entry(
      where,
      m,
      errors,
      e.today,
      ['status', 'channel', 'subject', 'body', 'to', 'actor', 'sent_at'],
      at,
    );
    const sending = me.oneOf('status', OUTBOUND_STATUSES, 'drafted');
    const sendingKnown = !me.refused('status');
    const to = email(me, 'to') ?? contactEmail;
    // A message still to go needs somebody to go to: the desk would offer to send it and could only fail.
    if (to === null && sendingKnown && sending !== 'sent')
      me.fail('to', `is needed for ${article(sending)} ${sending} message: give "to", or contact_email on the row`);
    const sentAt = me.date('sent_at', { past: true });
    if (sentAt !== null && sendingKnown && sending !== 'sent')
      me.fail('sent_at', `is for a sent message; this one is ${sending}`);
    // Finishing a row withdraws the message it was still to send, so a finished row holds none.
    if (sendingKnown && sending !== 'sent' && known !== null && isFinished(known))
      me.fail('status', `a ${known} row holds no ${sending} message; give it as sent, or leave it out`);
    // The desk keeps one draft a row, the one it would send: a second would be neither sent nor
    // withdrawn when the row finishes.
    if (sendingKnown && sending === 'drafted' && firstDraft !== null)
      me.fail('status', `a row holds one drafted message; messages[${firstDraft}] is drafted already`);
    if (sendingKnown && sending === 'drafted') firstDraft ??= i;
    // A message still to go is held to what the owner may send unchanged: a subject of one
    // header line, the lengths the approve form takes, and email, the only way the desk sends.
    // A sent one is the record of what went, as an earlier version may have kept it, so that a
    // desk's own export reads back.
    const toGo = sendingKnown && sending !== 'sent';
    const subject = me.text('subject', toGo ? { max: MESSAGE_MAX.subject } : {});
    if (subject !== null && toGo && breaksLine(subject))
      me.fail('subject', 'holds a line break or another control character; a subject goes out as one header line');
    const channel = me.text('channel') ?? 'email';
    if (toGo && channel !== 'email' && !me.refused('channel'))
      me.fail(
        'channel',
        `is "${echoed(channel)}", but the desk sends only by email; give ${article(sending)} ${sending} message channel email, or give it as sent`,
      );
    return [
      {
        status: sending,
        channel,
        subject,
        body: me.text('body', toGo ? { required: true, max: MESSAGE_MAX.body } : { required: true }),
        to,
        actor: me.text('actor') ?? 'desk',
        sent_at: sentAt,
      },
    ];
  });
  const waitingOn = e.text('waiting_on', { max: TEXT_MAX.waiting_on });
  return {
    ref,
    title: e.text('title', { required: true, max: TEXT_MAX.title }),
    detail: e.text('detail', { max: TEXT_MAX.detail }),
    kind: e.text('kind', { max: TEXT_MAX.kind }) ?? 'general',
    status,
    due_date: e.date('due'),
    priority: e.integer('priority', { min: 1, max: 100, fallback: 50 }),
    class: klass,
    needs_person: e.flag('needs_person'),
    chase_after_days: e.integer('chase_after_days', { min: 1, max: 365, fallback: 7 }),
    max_chases: e.integer('max_chases', { min: 0, max: 100, fallback: 3 }),
    chases: e.integer('chases', { min: 0, max: 100, fallback: 0 }),
    contact_name: e.text('contact_name', { max: TEXT_MAX.contact_name }),
    contact_email: contactEmail,
    waiting_on: waitingOn,
    waiting_since: waitingSince(e, waitingOn),
    ...reply(e, known),
    closed_at: closedAt(e, known),
    last_error: e.text('last_error'),
    arrangement: asName(e.text('arrangement')),
    unit: asName(e.text('unit')),
    playbook: asName(e.text('playbook')),
    messages,
  };
}

function closedAt(e: Entry, status: WorkStatus | null): string | null {
  const day = e.date('closed_at', { past: true });
  if (day !== null && status !== null && status !== 'done' && status !== 'closed')
    e.fail('closed_at', `is for a done or closed row; this row is ${status}`);
  return day;
}

/** A reply still to read: a reply to a finished row is kept in its messages, not on the row. */
function reply(e: Entry, status: WorkStatus | null): Pick<WorkPlan, 'replied_by' | 'replied_at'> {
  const answer = {
    replied_by: e.text('replied_by', { max: TEXT_MAX.waiting_on }),
    replied_at: e.date('replied_at', { past: true }),
  };
  if (status !== null && isFinished(status))
    for (const field of ['replied_by', 'replied_at'] as const)
      if (answer[field] !== null)
        e.fail(field, `is for a reply still to read, on a row not done or closed; this row is ${status}`);
  return answer;
}

/** The day the row began to wait: not after today, and only on a row waiting on somebody. */
function waitingSince(e: Entry, waitingOn: string | null): string | null {
  const day = e.date('waiting_since', { past: true });
  // An empty waiting_on counts as absent, as every empty optional text does.
  if (day !== null && waitingOn === null && !(e.has('waiting_on') && typeof e.raw.waiting_on !== 'string'))
    e.fail('waiting_since', 'is for a row waiting on somebody; give waiting_on too');
  return day;
}
