import { execFileSync } from 'node:child_process';

// Redis for the tests that share limits between server processes: DESK_TEST_REDIS_URL, or the
// local server when one answers. Those tests skip, saying so once, when none does.

export const REDIS_URL = process.env.DESK_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

function answers(url: string): boolean {
  // Asked once at load, in a child so the check stays synchronous for describe.skipIf.
  const script = `const s=require('node:net').connect(${JSON.stringify(new URL(url).port || '6379')},${JSON.stringify(new URL(url).hostname)});s.setTimeout(1000,()=>process.exit(1));s.on('error',()=>process.exit(1));s.on('connect',()=>s.write('PING\\r\\n'));s.on('data',d=>process.exit(String(d).startsWith('+PONG')?0:1));`;
  try {
    execFileSync(process.execPath, ['-e', script], { stdio: 'ignore', timeout: 3000 });
    return true;
  } catch {
    return false;
  }
}

export const redisAvailable = answers(REDIS_URL);
if (!redisAvailable) console.info(`Redis tests skipped: nothing answers at ${REDIS_URL} (set DESK_TEST_REDIS_URL).`);
