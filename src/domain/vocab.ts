// The contract's fixed sets. Open vocabularies (work kind, channel, connection category)
// are deliberately absent: they are strings the business chooses.

export const PERMISSION_CLASSES = ['reach_out', 'chase', 'file', 'commit', 'money', 'sign'] as const;
export type PermissionClass = (typeof PERMISSION_CLASSES)[number];

/** Classes the owner may never hand to the desk. */
export const UNGRANTABLE: readonly PermissionClass[] = ['money', 'sign'];

export const WORK_STATUSES = ['open', 'in_progress', 'waiting', 'done', 'closed'] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];
export const OPEN_STATUSES: readonly WorkStatus[] = ['open', 'in_progress', 'waiting'];
export const FINISHED_STATUSES: readonly WorkStatus[] = ['done', 'closed'];

export const ACTION_TYPES = ['approve', 'run', 'nudge', 'wait', 'own', 'answer', 'prepare', 'fix'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** `received` is a reply read from the desk's mailbox (P-mail-1); the desk itself writes only the first three. */
export const MESSAGE_STATUSES = ['drafted', 'approved', 'sent', 'received'] as const;
export const OUTBOUND_STATUSES = ['drafted', 'approved', 'sent'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const SECTION_KINDS = ['work', 'units', 'money', 'dates'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

export const ARRANGEMENT_STATUSES = ['active', 'ending', 'ended'] as const;
export const DOMAIN_STATUSES = ['live', 'unpaid', 'collections', 'expiring', 'expired', 'transferring'] as const;

export function isPermissionClass(v: unknown): v is PermissionClass {
  return typeof v === 'string' && (PERMISSION_CLASSES as readonly string[]).includes(v);
}
export function isOpenStatus(s: string): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(s);
}
export function isFinished(s: string): boolean {
  return (FINISHED_STATUSES as readonly string[]).includes(s);
}

/** A work status as read from the store, where only the write verbs set it, always from WORK_STATUSES. */
export function storedStatus(s: string): WorkStatus {
  return s as WorkStatus;
}

/** A row's class as read from the store, where the write verbs only ever put a PERMISSION_CLASSES value or null. */
export function storedClass(s: string | null): PermissionClass | null {
  return s as PermissionClass | null;
}

/**
 * The fields of a connection's settings that are secrets, as paths into its config (`imap.pass`
 * is `pass` inside `imap`). They are written, never shown: a form left empty keeps them.
 */
export const CONNECTION_SECRETS = ['pass', 'password', 'imap.pass'] as const;

/**
 * A setting whose name says it holds a secret, at any depth of a connection's config: the
 * forms' passwords above, and a token, an API or access key, a PIN and the like that a business
 * file may give. Each is sealed in the database and left out of an export and of the screen.
 */
const SECRET_SETTING = /pass|pwd|secret|token|api[_-]?key|access[_-]?key|private|credential|^pin$|[_-]pin$/i;

export function isSecretSetting(name: string): boolean {
  return SECRET_SETTING.test(name);
}

/** The owner's name in the record and as an assignee: the screen and the CLI act under it. */
export const OWNER = 'owner';
