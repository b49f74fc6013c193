// Started by test/helpers/racers.ts as a separate process: one watch, work or mail pass against
// the database named on the command line. It says "ready" once connected and starts on "go",
// so that two of these race for real.
import { createInterface } from 'node:readline';
import { runMailPass } from '../../src/app/mail/pass.ts';
import { runWatchPass } from '../../src/app/watches/pass.ts';
import { runWorkPass } from '../../src/app/work/pass.ts';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import { reopenStore } from '../helpers/db.ts';

const [kind, target, now, desk] = process.argv.slice(2) as [string, string, string, string | undefined];
const store = await reopenStore(target, { migrate: false });
const config = loadConfig({ DESK_DATABASE_URL: target, DESK_MAIL_TIMEOUT: '5s' });
const deps = { store, clock: new FixedClock(new Date(now)), config, engine: realEngine(config) };
await store.db.selectFrom('desks').select('id').execute();
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();
const scope = desk ? { desk } : {};
const result =
  kind === 'watch'
    ? await runWatchPass(deps)
    : kind === 'work'
      ? await runWorkPass(deps, scope)
      : await runMailPass(deps, scope);
process.stdout.write(`result ${JSON.stringify(result)}\n`);
await store.close();
