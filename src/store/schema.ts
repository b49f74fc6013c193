import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// Timestamps are ISO 8601 UTC strings and dates are YYYY-MM-DD strings on both databases:
// they sort correctly as text, and the two dialects then read back identical values.
// Booleans are integers 0/1 for the same reason.

export interface DesksTable {
  id: string;
  name: string;
  slug: string;
  plan: string;
  status: string;
  timezone: string;
  currency: string;
  broker: string | null;
  /** Working hours in the desk's timezone for what it does on its own: "mon-fri 09:00-17:00" or "always". */
  hours: ColumnType<string, string | undefined, string>;
  /** Acts the desk may do on its own in one desk-day. */
  daily_cap: ColumnType<number, number | undefined, number>;
  /** How many days ahead of a due date the desk acts on its own. */
  act_within_days: ColumnType<number, number | undefined, number>;
  /** 1 while everything the desk does on its own is paused. */
  paused: ColumnType<number, number | undefined, number>;
  /** Rows in open, in_progress or waiting; kept by the work repository in the same transaction as every status change. */
  open_count: ColumnType<number, number | undefined, number>;
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  desk_id: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface GrantsTable {
  desk_id: string;
  class: string;
  created_at: string;
}

export interface WorkTable {
  id: Generated<number>;
  desk_id: string;
  title: string;
  detail: string | null;
  kind: string;
  status: string;
  due_date: string | null;
  /** due_date, or NO_DATE_KEY ('9999-12-32') when there is none: one sort key, after every date, on both dialects. */
  due_key: string;
  priority: number;
  class: string | null;
  needs_person: number;
  /** The person the owner gave the row to, if any. */
  assignee: ColumnType<string | null, string | null | undefined, string | null>;
  chase_after_days: number;
  /** Chases the desk may send before the row needs a person. */
  max_chases: ColumnType<number, number | undefined, number>;
  /** Chases sent since the row last went out with somebody. */
  chases: ColumnType<number, number | undefined, number>;
  /** When the desk last acted on the row on its own. */
  desk_acted_at: ColumnType<string | null, string | null | undefined, string | null>;
  contact_name: string | null;
  contact_email: string | null;
  waiting_on: string | null;
  waiting_since: string | null;
  last_error: string | null;
  arrangement_id: number | null;
  unit_id: number | null;
  playbook_id: number | null;
  watch_id: number | null;
  watch_date: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** Who replied, and when, to what the desk sent; cleared once a person has seen to the row. */
  replied_by: Generated<string | null>;
  replied_at: Generated<string | null>;
}

/** Open rows of a desk by class ('' for none) and by whether they are out with somebody (1) or not (0); kept by the work repository. */
export interface OpenClassCountsTable {
  desk_id: string;
  class: string;
  out: number;
  n: number;
}

/** Open rows of an arrangement by due_key; kept by the work repository, an entry removed when it reaches 0. */
export interface OpenArrangementCountsTable {
  desk_id: string;
  arrangement_id: number;
  due_key: string;
  n: number;
}

export interface ActivityTable {
  id: Generated<number>;
  desk_id: string;
  /** message, note or report */
  kind: string;
  obligation_id: number | null;
  arrangement_id: number | null;
  outcome_id: number | null;
  channel: string;
  direction: string;
  subject: string | null;
  body: string;
  to_address: string | null;
  status: string;
  actor: string;
  failure_reason: string | null;
  created_at: string;
  sent_at: string | null;
  approved_at: string | null;
  /** When a claimed message's send is taken as left behind, by the limits of the process that claimed it; null on claims made before migration 030 */
  send_stale_at: string | null;
  /** The Message-ID a sent message went out with. */
  message_id: Generated<string | null>;
  /** A received message's attachments as JSON [{ name, size }]; the files are not kept. */
  attachments: Generated<string | null>;
  /** The address a received message came from; null on messages read before it was kept. */
  from_address: Generated<string | null>;
}

export interface TimelineTable {
  id: Generated<number>;
  desk_id: string;
  work_id: number;
  kind: string;
  at: string;
  text: string;
}

export interface EventsTable {
  id: Generated<number>;
  desk_id: string;
  kind: string;
  message: string;
  data: string;
  created_at: string;
}

export interface ArrangementsTable {
  id: Generated<number>;
  desk_id: string;
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
  created_at: string;
}

export interface UnitsTable {
  id: Generated<number>;
  desk_id: string;
  type: string;
  name: string;
  fields: string;
  arrangement_id: number | null;
  position: number;
}

export interface ConnectionsTable {
  id: Generated<number>;
  desk_id: string;
  provider: string;
  name: string;
  category: string;
  auth_type: string;
  status: string;
  /** Secrets live here; never served. */
  config: string;
  created_at: string;
  /** Why the last send through this mailbox never reached its server; null once one does. */
  send_fault: string | null;
  send_fault_at: string | null;
}

export interface DomainsTable {
  id: Generated<number>;
  desk_id: string;
  name: string;
  registrar: string;
  status: string;
  renewal_on: string | null;
  amount_cents: number;
  currency: string;
  broker_name: string | null;
  notes: string | null;
}

export interface SectionsTable {
  desk_id: string;
  id: string;
  position: number;
  title: string;
  blurb: string;
  kind: string;
  kinds: string;
  unit: string | null;
  fields: string;
  why: string;
  created_at: string;
}

export interface WatchesTable {
  id: Generated<number>;
  desk_id: string;
  subject_type: string;
  field: string;
  label: string;
  lead_days: number;
  kind: string;
  action: string;
  every: string | null;
  priority: number;
}

export interface PlaybooksTable {
  id: Generated<number>;
  desk_id: string;
  name: string;
  connection_id: number | null;
  steps: string;
}

export interface RunsTable {
  id: Generated<number>;
  desk_id: string;
  work_id: number;
  /** running while under way; then finished, failed, timed_out, interrupted (the server stopped first) or stopped (nothing done) */
  status: string;
  /** send, draft_send or playbook; null on rows written before runs recorded it */
  how: string | null;
  /** The row's status when the run found it, to put it back when the run could not finish. */
  prior_status: string | null;
  started_at: string;
  /** When the run is taken as left behind, by the time limits of the process that started it; null on runs begun before migration 029 */
  stale_at: string | null;
  finished_at: string | null;
  ms: number | null;
  report: string | null;
}

export interface IdempotencyTable {
  desk_id: string;
  key: string;
  /** pending while the first call runs; done once its answer is stored */
  state: string;
  http_status: number | null;
  body: string | null;
  created_at: string;
  expires_at: string;
}

/** Server-wide values, such as the secret that signs cursors, shared by every process on one database. */
export interface SettingsTable {
  key: string;
  value: string;
}

/** A one-time sign-in link for the owner's screen; the token is stored hashed. */
export interface OwnerLinksTable {
  token_hash: string;
  desk_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A signed-in browser; it lapses after a stretch of idle days. */
export interface OwnerSessionsTable {
  token_hash: string;
  desk_id: string;
  created_at: string;
  last_seen_at: string;
}

/** Where reading a mail connection's mailbox has got to. */
export interface MailReadsTable {
  connection_id: number;
  desk_id: string;
  uidvalidity: string | null;
  last_uid: number;
  /** Why the last pass could not read the mailbox; null when it could. */
  error: string | null;
  checked_at: string | null;
  /** The message the last passes could not handle, how many passes in a row stopped at it, and when the last counted one did. */
  stuck_uid: number | null;
  stuck_tries: Generated<number>;
  stuck_at: string | null;
}

/** A message a pass has handled, once per connection, UIDVALIDITY and UID. */
export interface MailSeenTable {
  connection_id: number;
  uidvalidity: string;
  uid: number;
  desk_id: string;
  message_id: string | null;
  /** reply, auto_reply, bounce, unrelated, repeat, unparseable or passed_over */
  outcome: string;
  handled_at: string;
}

export interface Database {
  settings: SettingsTable;
  desks: DesksTable;
  api_keys: ApiKeysTable;
  grants: GrantsTable;
  work: WorkTable;
  open_class_counts: OpenClassCountsTable;
  open_arrangement_counts: OpenArrangementCountsTable;
  activity: ActivityTable;
  timeline: TimelineTable;
  events: EventsTable;
  arrangements: ArrangementsTable;
  units: UnitsTable;
  connections: ConnectionsTable;
  domains: DomainsTable;
  sections: SectionsTable;
  watches: WatchesTable;
  playbooks: PlaybooksTable;
  runs: RunsTable;
  idempotency: IdempotencyTable;
  owner_links: OwnerLinksTable;
  owner_sessions: OwnerSessionsTable;
  mail_reads: MailReadsTable;
  mail_seen: MailSeenTable;
}

export type DeskRow = Selectable<DesksTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type WorkRow = Selectable<WorkTable>;
export type NewWork = Insertable<WorkTable>;
export type WorkUpdate = Updateable<WorkTable>;
export type ActivityRow = Selectable<ActivityTable>;
export type ArrangementRow = Selectable<ArrangementsTable>;
export type UnitRow = Selectable<UnitsTable>;
export type DomainRow = Selectable<DomainsTable>;
export type SectionRow = Selectable<SectionsTable>;
export type WatchRow = Selectable<WatchesTable>;
export type RunRow = Selectable<RunsTable>;
