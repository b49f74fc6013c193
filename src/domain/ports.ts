import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Store } from '../store/db.ts';
import type { Database, DeskRow } from '../store/schema.ts';
import type { Clock } from './clock.ts';
import type { PlaybookRequest, PlaybookResult } from './playbooks.ts';

// Every interface the domain calls out through, and the context it is handed. The domain
// declares them; adapters/ implements them (SMTP, Chromium, the language model) and app/
// implements the chat answerers. Nothing here imports an implementation, so imports point
// one way: adapters and services depend on the domain, never the reverse.

// --- Mail: the real one speaks SMTP (adapters/smtp).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The Message-ID to send with, angle brackets included; the desk makes it (message-id.ts). */
  messageId?: string;
  /** Threading on an earlier message: its Message-ID. */
  inReplyTo?: string;
  references?: string[];
}

export interface MailConnection {
  provider: string;
  /** The connection's stored settings (host, port, secure, user, pass, from). */
  config: Record<string, unknown>;
}

export type SendResult =
  | { accepted: true; messageId: string | null; response: string | null }
  /**
   * `unknown`: the server stopped answering or closed the connection after it had the message,
   * so it may have gone. `unreachable`: the mailbox's server could not be reached or stopped
   * answering, so any other message through it would fare the same just now (a refusal of this
   * message is not); without `unknown`, nothing was handed over, so nothing went.
   * `refusedMailbox`: the server refused the mailbox itself (its sign-in, its sender, or any
   * conversation with it), before any message: every other message would be refused alike until
   * the mailbox's settings or its server change.
   */
  | { accepted: false; reason: string; unknown?: boolean; unreachable?: boolean; refusedMailbox?: boolean };

export interface Mailer {
  send(connection: MailConnection, mail: OutgoingMail): Promise<SendResult>;
}

// --- Reading mail: the real one speaks IMAP (adapters/imap) and parses with mailparser.

/** The `imap` part of a mail connection, with its defaults filled in. */
export interface MailboxSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  pass: string | null;
  /** The folder replies arrive in. */
  mailbox: string;
}

/** Where the last pass got to. A UIDVALIDITY other than the mailbox's means it was reset. */
export interface ReadPosition {
  uidValidity: string | null;
  lastUid: number;
  /** A reset mailbox is read again from this instant. */
  since: Date;
}

export interface ReadLimits {
  /** Every step (connect, greeting, login, select, search, each fetch, logout) gives up after this. */
  timeoutMs: number;
  /** A message larger than this is read for its headers alone. */
  maxBytes: number;
  /** At most this many messages a pass; the next pass goes on from the last one. */
  maxMessages: number;
}

/** One message as the reader understood it; a message that would not parse has `mail: null`. */
export interface IncomingMail {
  uid: number;
  mail: ParsedMail | null;
}

export interface ParsedMail {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  fromName: string | null;
  fromAddress: string | null;
  subject: string;
  /** The Date header as an ISO instant, when it is a date. */
  date: string | null;
  /** When the desk's own mail server took it in (IMAP's INTERNALDATE), as an ISO instant. */
  arrivedAt?: string | null;
  /** Header names in lower case; a repeated header keeps its first value. */
  headers: Record<string, string>;
  /** The text body; an HTML-only message turned into text. Empty when only the headers were read. */
  text: string;
  attachments: Array<{ name: string; size: number }>;
  /** The machine-readable part of a delivery status report, as text. */
  deliveryStatus: string | null;
  /** The headers of the message a report sends back, as text. */
  returnedHeaders: string | null;
  /** Read for its headers alone, being over the size limit. */
  headersOnly: boolean;
}

export interface MailBatch {
  uidValidity: string;
  /** In UID order. */
  messages: IncomingMail[];
  /** More new messages wait than one pass reads: the next pass goes on after the last one here. */
  more: boolean;
  /** Why reading stopped early, in words a person can act on; the messages read before it are still given. */
  fault: string | null;
  /**
   * On a new UIDVALIDITY, the last UID before the first message since `from.since`: what lies
   * at or below it is older, and later passes read on after it, not from the mailbox's start.
   */
  olderUpTo?: number;
}

export interface MailReader {
  /** The messages after `from`, or since `from.since` when the mailbox's UIDVALIDITY changed. Throws when the server is down, refuses or drops. */
  read(settings: MailboxSettings, from: ReadPosition, limits: ReadLimits): Promise<MailBatch>;
  /** Signs in, opens the mailbox read-only and signs out: how many messages it holds. Throws the refusal in words. */
  check(settings: MailboxSettings, timeoutMs: number): Promise<{ messages: number }>;
}

// --- Playbooks: the real runner drives Chromium (adapters/chromium).

export interface PlaybookRunner {
  run(request: PlaybookRequest): Promise<PlaybookResult>;
  /** Whether a browser can be started on this machine at all. */
  available(): boolean;
}

// --- Chat: what answers POST /chat (app/chat). A backend only reads the desk; the blocks it
// wants added come back as drafts, and the chat verb saves them only when the answer arrived
// in time.

/** What a backend proposes; everything but the title may be left for the desk to fill. */
export interface SectionDraft {
  id?: string;
  title?: string;
  blurb?: string;
  kind?: string;
  kinds?: string[];
  unit?: string | null;
  fields?: Array<{ name: string; hint?: string }>;
  why?: string;
}

export interface ChatReply {
  answer: string;
  /**
   * The answer once it is known which blocks were saved, for an answer that says what was
   * added: a block asked for may still not be (the page full, or another chat added it first),
   * and only the saved blocks may be said to be there.
   */
  answerFor?: (added: readonly { title: string }[]) => string;
  /** Blocks to add to the desk. */
  sections: SectionDraft[];
  /** Which backend answered: `builtin` or `llm`. */
  backend: string;
  /** Why the language model did not answer, when the built-in answerer stood in for it. */
  fallback_reason?: string;
}

export interface ChatBackend {
  /** `signal` aborts when the chat's time is up; the reply is then thrown away. */
  answer(ctx: DeskContext, question: string, signal: AbortSignal): Promise<ChatReply>;
}

// --- Language model: an OpenAI-compatible chat completions endpoint (adapters/llm).

export interface ModelToolCall {
  id: string;
  type?: string;
  function: { name: string; arguments?: unknown };
}

export interface ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ModelToolCall[];
  tool_call_id?: string;
}

export interface LanguageModel {
  /** One round: the conversation so far and the tools on offer in, the model's next message out. Throws when it cannot answer. */
  complete(messages: ModelMessage[], tools: readonly object[], signal: AbortSignal): Promise<ModelMessage>;
}

// --- The context every verb is handed.

/** Who is acting: a program holding a key, the owner at the screen or CLI, or the desk's own jobs. */
export type Actor =
  | { type: 'key'; keyId: number; keyPrefix: string; keyName: string }
  | { type: 'owner'; name: string }
  | { type: 'system'; name: string };

/** The desk's own machinery, swappable in tests only where the real thing cannot exist. */
export interface Engine {
  mailer: Mailer;
  reader: MailReader;
  runner: PlaybookRunner;
  /** Answers POST /chat: the built-in answerer, or a language model when DESK_LLM_URL is set. */
  chat: ChatBackend;
}

/** What every door (HTTP, CLI, scheduler) builds once at start. */
export interface Deps {
  store: Store;
  clock: Clock;
  config: Readonly<Config>;
  engine: Engine;
}

/** Passed explicitly to every domain verb: the desk, the actor, the clock and the database handle. */
export interface DeskContext extends Deps {
  db: Kysely<Database>;
  desk: DeskRow;
  actor: Actor;
  /** The desk's own calendar date (D9). */
  today(): string;
  /** The current instant as an ISO 8601 UTC string. */
  now(): string;
  /**
   * On PostgreSQL, the store's version read with the request's key (P-speed-5): answers kept
   * under it may be given to this request. Absent elsewhere.
   */
  seen?: string | undefined;
}
