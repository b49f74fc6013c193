// Run by watches.test.ts as a separate process: one watch pass against the database named on
// the command line. It says "ready" once connected and starts on "go", so that two of these
// race for real.
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import { runWatchPass } from '../../src/app/watches/pass.ts';
import { reopenStore } from '../helpers/db.ts';

const [target, now] = process.argv.slice(2) as [string, string];
const store = await reopenStore(target, { migrate: false });
const config = loadConfig({ DESK_DATABASE_URL: target });
const deps = { store, clock: new FixedClock(new Date(now)), config, engine: realEngine(config) };
await store.db.selectFrom('desks').select('id').execute();
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();
const result = await runWatchPass(deps);
process.stdout.write(`result ${JSON.stringify(result)}\n`);
await store.close();
