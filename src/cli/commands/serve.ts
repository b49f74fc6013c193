import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { checkedOption, portNumber } from '../checks.ts';
import { misspeltSettings } from '../../config.ts';
import { configFor, dbOption, type DbOptions, type Io } from '../io.ts';

export function serveCommand(program: Command, io: Io): void {
  dbOption(
    program
      .command('serve')
      .description(
        "Run the API under /api/v1 and the owner's screen at / (creates a demo desk and prints its key and a sign-in link on first start)",
      )
      .addOption(checkedOption('--port <port>', 'port to listen on (default DESK_PORT or 8080)', portNumber(0)))
      .option('--host <host>', 'address to listen on (default DESK_HOST or 127.0.0.1)'),
  ).action(async (opts: DbOptions & { port?: number; host?: string }) => {
    const config = configFor(io, {
      db: opts.db,
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.host ? { host: opts.host } : {}),
    });
    for (const line of misspeltSettings(io.env)) io.err(`desk: ${line}`);
    heapForServing();
    // The server (Fastify, the screen) is loaded only for this command.
    const [{ startServer }, { logsJson, noticeRecords }] = await Promise.all([
      import('../../server.ts'),
      import('../../http/log-format.ts'),
    ]);
    const out = logsJson(config.logFormat, process.stdout.isTTY === true)
      ? { out: noticeRecords((line) => io.out(line)) }
      : io;
    const server = await startServer(config, out);
    await server.closed;
  });
}

/**
 * Under load more of each request's garbage outlives the young generation (32 requests in
 * flight at once) and piles up in the old one, which V8 lets grow to several times what it
 * keeps alive before collecting it (the server reached 144-176 MB on SQLite). Growing it by
 * half of that instead holds the server at 112-125 MB on PostgreSQL and 136-142 MB on SQLite,
 * at the same throughput (P-speed-11). Set before the server loads: set after, the limits V8
 * worked out while loading it stand for a while.
 */
function heapForServing(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
