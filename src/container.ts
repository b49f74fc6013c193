import type { Config } from './config.ts';
import { systemClock, type Clock } from './domain/clock.ts';
import type { Deps, Engine } from './domain/context.ts';
import { SmtpMailer } from './desk/mail/smtp.ts';
import { ChromiumRunner } from './desk/runs/browser.ts';
import { openStore, type Store } from './store/db.ts';

/** The real engine: SMTP for mail, Chromium for playbooks. */
export function realEngine(config: Readonly<Config>): Engine {
  return {
    mailer: new SmtpMailer({ timeoutMs: config.mailTimeoutMs }),
    runner: new ChromiumRunner({ executablePath: config.chromiumPath }),
  };
}

/** Opens the store and wires the engine: what every door needs, built once. */
export async function buildDeps(config: Readonly<Config>, overrides: { clock?: Clock; engine?: Partial<Engine>; store?: Store } = {}): Promise<Deps> {
  const store = overrides.store ?? (await openStore(config.database));
  return {
    store,
    clock: overrides.clock ?? systemClock,
    config,
    engine: { ...realEngine(config), ...overrides.engine },
  };
}
