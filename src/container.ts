import type { Config } from './config.ts';
import { clockFor, type Clock } from './domain/clock.ts';
import type { Deps, Engine } from './domain/context.ts';
import { BuiltinChat } from './app/chat/builtin.ts';
import { LlmChat } from './app/chat/llm.ts';
import { OpenAiModel } from './adapters/llm/client.ts';
import { SmtpMailer } from './adapters/smtp/mailer.ts';
import { ImapReader } from './adapters/imap/reader.ts';
import { ChromiumRunner } from './adapters/chromium/runner.ts';
import { openStore, type Store } from './store/db.ts';

/** The real engine: SMTP for mail, IMAP for replies, Chromium for playbooks, the built-in answerer or a language model for chat. */
export function realEngine(config: Readonly<Config>): Engine {
  const builtin = new BuiltinChat();
  return {
    mailer: new SmtpMailer({ timeoutMs: config.mailTimeoutMs }),
    reader: new ImapReader(),
    runner: new ChromiumRunner({
      executablePath: config.chromiumPath,
      privateAddresses: config.runPrivateAddresses,
      sandbox: config.chromiumSandbox,
    }),
    chat: config.llmUrl
      ? new LlmChat({
          model: new OpenAiModel({ url: config.llmUrl, model: config.llmModel, key: config.llmKey }),
          fallback: builtin,
        })
      : builtin,
  };
}

/** Opens the store and wires the engine: what every door needs, built once. */
export async function buildDeps(
  config: Readonly<Config>,
  overrides: {
    clock?: Clock;
    engine?: Partial<Engine>;
    store?: Store;
    serving?: boolean;
    existing?: boolean;
    /**
     * Where the door says what opening the database did to it: an upgrade starting and done, a
     * key file made (each of them is to be told to whoever runs the door).
     */
    say?: (line: string) => void;
  } = {},
): Promise<Deps> {
  let announced = false;
  const store =
    overrides.store ??
    (await openStore(config.database, {
      secretKey: config.secretKey,
      serving: overrides.serving ?? false,
      existing: overrides.existing ?? false,
      statementTimeoutMs: config.databaseTimeoutMs,
      upgrading: overrides.say
        ? (pending, location) => {
            announced = true;
            overrides.say?.(upgradingLine(location, pending));
          }
        : undefined,
    }));
  if (!overrides.store)
    for (const line of [upgradedLine(store, announced), keyFileLine(store)]) if (line) overrides.say?.(line);
  return {
    store,
    clock: overrides.clock ?? clockFor(config.startsAt),
    config,
    engine: { ...realEngine(config), ...overrides.engine },
  };
}

/** What a door says as it starts to bring an earlier version's database up to this one. */
function upgradingLine(location: string, pending: string[]): string {
  return `Upgrading the database at ${location} to this version of Desk (${pending.length === 1 ? '1 change' : `${pending.length} changes`}); on a large database this takes a while.`;
}

/** What a door says when opening the database made its key file, which must be kept with it. */
function keyFileLine(store: Store): string | null {
  const { file, made } = store.secretKey;
  return made && file
    ? `Made the key file ${file}, which seals the passwords of the desk's connections: back it up apart from the database; without it they cannot be read.`
    : null;
}

/**
 * What a door says when opening the database brought it up to this version (Store.upgraded), or,
 * once it has said it was upgrading, that another process starting at the same time did it first.
 */
function upgradedLine(store: Store, announced: boolean): string | null {
  const changes = store.upgraded;
  if (changes.length === 0)
    return announced
      ? `Another process upgraded the database at ${store.location} meanwhile; it is up to date with this version of Desk.`
      : null;
  return `Upgraded the database at ${store.location} to this version of Desk (${changes.length === 1 ? 'change' : 'changes'} ${changes.join(', ')}); earlier versions will not open it now.`;
}
