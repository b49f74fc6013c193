import { actorName, type DeskContext } from '../context.ts';
import { serverNameFault, smtpFaults, USER_TOO_LONG } from './smtp-settings.ts';
import { badRequest, notFound } from '../errors.ts';
import { logEvent } from '../record.ts';
import { CONNECTION_SECRETS } from '../vocab.ts';
import { atomically } from '../../store/tx.ts';
import { addConnection, changeConnection, connectionById } from '../../store/repositories/connections.ts';
import { playbooksOf, signInPlaybooksWith } from '../../store/repositories/setup.ts';
import { forgetReadFault } from '../../store/repositories/mail.ts';
import { closeDirections, controlCharacterAt, echoed, longerThan } from '../text.ts';
import { SETUP_TEXT_MAX } from '../limits.ts';

// The one way a connection is written by hand: the mailbox and portal sign-ins on the screen,
// and whatever else brings connections in. A secret left empty keeps the one already stored,
// so a form never has to show a secret to keep it; secrets never reach an event or an answer.

export interface ConnectionInput {
  provider: string;
  name: string;
  category: string;
  auth_type?: string;
  status?: string;
  config: Record<string, unknown>;
  /** For a sign-in: the playbooks that sign in with it. Absent leaves every playbook as it is. */
  playbooks?: number[];
}

export interface SavedConnection {
  id: number;
  name: string;
  created: boolean;
}

function secretAt(config: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), config);
}

function setAt(config: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = config;
  for (const k of keys.slice(0, -1)) {
    const next = at[k];
    if (!next || typeof next !== 'object' || Array.isArray(next)) at[k] = {};
    at = at[k] as Record<string, unknown>;
  }
  at[keys[keys.length - 1]!] = value;
}

function partOf(config: Record<string, unknown>, path: string): boolean {
  const parent = path.split('.').slice(0, -1);
  if (parent.length === 0) return true;
  const at = secretAt(config, parent.join('.'));
  return at !== null && typeof at === 'object';
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

type SecretPath = (typeof CONNECTION_SECRETS)[number];

/**
 * The settings each secret is sent with. A form that leaves a secret empty keeps the stored one
 * only while these are as they were: otherwise whoever holds the screen could point the mailbox
 * at a server of theirs, press "Send a test message", and read the password it signs in with.
 */
const SENT_WITH: Record<SecretPath, readonly string[]> = {
  pass: ['host', 'port', 'secure', 'starttls', 'user'],
  'imap.pass': ['imap.host', 'imap.port', 'imap.secure', 'imap.user'],
  // A sign-in's password goes where its playbooks go, which a business file sets, not this form.
  password: [],
};

const AGAIN: Record<SecretPath, [field: string, said: string]> = {
  pass: [
    'pass',
    'Type the password again: the server, port, security or user changed, and the stored password goes only where it went before.',
  ],
  'imap.pass': [
    'imap_pass',
    'Type the inbox password again: its server, port, security or user changed, and the stored password goes only where it went before.',
  ],
  password: ['password', 'Type the password again.'],
};

const plain = (v: unknown) => JSON.stringify(typeof v === 'string' ? v.trim() : (v ?? null));

/** The stored secret at `path` that an empty field keeps: there is one, and it would go where it went. */
function keptSecret(
  path: SecretPath,
  config: Record<string, unknown>,
  stored: Record<string, unknown> | null,
): unknown {
  const kept = stored ? secretAt(stored, path) : undefined;
  if (empty(kept) || !stored) return undefined;
  return SENT_WITH[path].every((p) => plain(secretAt(config, p)) === plain(secretAt(stored, p))) ? kept : undefined;
}

/** The imap part's rules, by the inbox form's field names. */
function checkInbox(imap: Record<string, unknown>, kept: unknown, errors: Record<string, string>): void {
  const host = typeof imap.host === 'string' ? imap.host.trim() : '';
  const hostFault = host ? serverNameFault(host, 993) : 'The inbox server is required, such as imap.example.com.';
  if (hostFault) errors.imap_host = hostFault;
  const port = imap.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    errors.imap_port = `"${echoed(port)}" is not a port: a whole number from 1 to 65535, such as 993.`;
  if (typeof imap.user !== 'string' || imap.user.trim() === '')
    errors.imap_user = 'The user name the inbox signs in with is required.';
  else if (longerThan(imap.user.trim(), SETUP_TEXT_MAX.user)) errors.imap_user = USER_TOO_LONG;
  if (empty(imap.pass) && empty(kept)) errors.imap_pass = 'The password is required to read the inbox.';
  if (typeof imap.mailbox === 'string' && imap.mailbox.length > 200)
    errors.imap_mailbox = 'A mailbox name is at most 200 characters.';
}

function check(
  input: ConnectionInput,
  kept: (path: SecretPath) => unknown,
  stored: Record<string, unknown> | null,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const c = input.config;
  // A secret left empty whose settings changed is asked for again, rather than dropped unsaid.
  for (const path of CONNECTION_SECRETS) {
    const given = path === 'imap.pass' ? secretAt(c, path) : c[path];
    if (empty(given) && partOf(c, path) && stored && !empty(secretAt(stored, path)) && empty(kept(path)))
      errors[AGAIN[path][0]] = AGAIN[path][1];
  }
  if (!input.name.trim())
    errors.name = `Give it a name, such as "${input.provider === 'smtp' ? 'Shop mailbox' : 'Tax portal'}".`;
  else if (longerThan(closeDirections(input.name.trim()), SETUP_TEXT_MAX.name))
    errors.name = `A name is at most ${SETUP_TEXT_MAX.name} characters.`;
  if (!input.provider.trim()) errors.provider = 'Say which service it is.';
  else if (longerThan(closeDirections(input.provider.trim()), SETUP_TEXT_MAX.provider))
    errors.provider = `Which service it is is said in at most ${SETUP_TEXT_MAX.provider} characters.`;
  if (!input.category.trim()) errors.category = 'Say what it is for, such as mail or filing.';
  else if (longerThan(input.category.trim(), SETUP_TEXT_MAX.category))
    errors.category = `What it is for is said in at most ${SETUP_TEXT_MAX.category} characters.`;
  if (input.provider === 'smtp') {
    Object.assign(errors, smtpFaults(c));
    const imap = c.imap;
    if (imap && typeof imap === 'object' && !Array.isArray(imap)) {
      // Every wrong inbox field is marked at once; a password asked for again says so over
      // "required", so the owner types it once, with the rest put right (P-inbox-2).
      const again = errors.imap_pass;
      checkInbox(imap as Record<string, unknown>, kept('imap.pass'), errors);
      if (again) errors.imap_pass = again;
    }
  }
  // As a business file refuses them (P-inbox-2): the desk's own export must read back in.
  const broken = controlCharacterAt(c);
  if (broken) {
    const field = broken.replace('.', '_');
    errors[field] ??=
      'This holds a tab, a line break or another control character, which a server would not take. Type it without.';
  }
  if (input.auth_type === 'login') {
    if (empty(c.username) || String(c.username).trim() === '')
      errors.username = 'The user name the portal signs in with is required.';
    else if (longerThan(String(c.username).trim(), SETUP_TEXT_MAX.user)) errors.username = USER_TOO_LONG;
    if (empty(c.password) && empty(kept('password')) && !errors.password)
      errors.password = 'The password is required for a new sign-in.';
  }
  return errors;
}

export async function saveConnection(
  ctx: DeskContext,
  id: number | null,
  input: ConnectionInput,
): Promise<SavedConnection> {
  return atomically(ctx, async (tx) => {
    const before = id === null ? undefined : await connectionById(tx.db, tx.desk.id, id);
    if (id !== null && !before) throw notFound('connection', id);
    // Settings a form does not show (an IMAP block, say) are kept as they were.
    const config: Record<string, unknown> = {
      ...structuredClone(before?.config ?? {}),
      ...structuredClone(input.config),
    };
    const kept = (path: SecretPath) => keptSecret(path, config, before?.config ?? null);
    const errors = check(input, kept, before?.config ?? null);
    if (input.playbooks) {
      const known = new Set((await playbooksOf(tx.db, tx.desk.id)).map((p) => p.id));
      if (input.playbooks.some((p) => !known.has(p))) errors.playbooks = "Choose among the desk's own playbooks.";
    }
    const fields = Object.keys(errors);
    if (fields.length > 0) throw badRequest(errors[fields[0]!]!, { field: fields[0], fields: errors });

    const secretsChanged: string[] = [];
    for (const path of CONNECTION_SECRETS) {
      const given = secretAt(config, path);
      // A form that leaves a secret empty keeps the stored one where it would go where it went; one
      // that never names it keeps it too. A secret whose part was removed (an imap part set to
      // null) goes with it.
      if (empty(given)) {
        const keep = kept(path);
        if (!empty(keep) && partOf(config, path)) setAt(config, path, keep);
      } else if (given !== (before ? secretAt(before.config, path) : undefined)) secretsChanged.push(path);
    }
    const values = {
      provider: closeDirections(input.provider.trim()),
      name: closeDirections(input.name.trim()),
      category: input.category.trim(),
      auth_type: input.auth_type ?? before?.auth_type ?? 'token',
      status: input.status ?? before?.status ?? 'connected',
      config,
    };
    const secret = new Set<string>(CONNECTION_SECRETS);
    // A part left out and a part set to null are the same absence (a form with its inbox empty).
    const as = (v: unknown) => JSON.stringify(v ?? null);
    const changed = Object.keys({ ...(before?.config ?? {}), ...config }).filter(
      (k) => !secret.has(k) && as(before?.config[k]) !== as(config[k]),
    );

    let saved: number;
    if (before) {
      saved = before.id;
      await changeConnection(tx.db, tx.desk.id, saved, values);
    } else saved = await addConnection(tx.db, tx.desk.id, values, tx.now());
    if (input.playbooks) await signInPlaybooksWith(tx.db, tx.desk.id, saved, input.playbooks);
    // A mailbox whose inbox is removed is no longer read, so why its reading last failed is moot.
    if (!partOf(config, 'imap.pass')) await forgetReadFault(tx.db, saved);

    const who = actorName(tx.actor);
    const what = values.category === 'mail' ? 'the mailbox' : 'the sign-in';
    await logEvent(
      tx,
      before ? 'connection_changed' : 'connection_added',
      `${who} ${before ? 'changed' : 'added'} ${what} "${values.name}".`,
      {
        connection_id: saved,
        category: values.category,
        settings: changed,
        secrets: secretsChanged,
        ...(input.playbooks ? { playbooks: input.playbooks } : {}),
        by: who,
      },
    );
    return { id: saved, name: values.name, created: !before };
  });
}
