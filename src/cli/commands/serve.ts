import type { Command } from 'commander';
import { configFor, dbOption, portArg, type DbOptions, type Io } from '../io.ts';

export function serveCommand(program: Command, io: Io): void {
  dbOption(
    program
      .command('serve')
      .description('Run the API under /api/v1 (creates a demo desk and prints its key on first start)')
      .option('--port <port>', 'port to listen on (default DESK_PORT or 8080)')
      .option('--host <host>', 'address to listen on (default DESK_HOST or 127.0.0.1)'),
  ).action(async (opts: DbOptions & { port?: string; host?: string }) => {
    const port = portArg(opts.port, 0);
    const config = configFor(io, {
      db: opts.db,
      ...(port !== undefined ? { port } : {}),
      ...(opts.host ? { host: opts.host } : {}),
    });
    // The server (Fastify, the screen) is loaded only for this command.
    const { startServer } = await import('../../server.ts');
    const server = await startServer(config, io);
    await server.closed;
  });
}
