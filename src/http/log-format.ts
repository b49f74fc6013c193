import { hostname } from 'node:os';
import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';

// How the server log is written: on a terminal, one readable line per request with a readable
// time (pino-pretty); otherwise, or with DESK_LOG_FORMAT=json, pino's JSON lines for machines.

export interface LogChoice {
  logger: FastifyServerOptions['logger'];
  /** Pretty logs say one line per request (buildApp's requestLines) instead of two. */
  pretty: boolean;
}

/** Colour on a terminal, unless NO_COLOR is set to anything (no-color.org). */
export function logColours(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  return isTTY && !env.NO_COLOR;
}

/** JSON lines for machines: asked for, or the log is not going to a terminal. */
export function logsJson(format: string | undefined, isTTY: boolean): boolean {
  return format === 'json' || (format !== 'pretty' && !isTTY);
}

/**
 * The process's own notices (listening, the first start's key and link, stopping) as records
 * in pino's shape, one a line, where the log is JSON: a collector then parses every line of
 * stdout. They are written whatever the log level, as on a terminal.
 */
export function noticeRecords(write: (line: string) => void, now: () => number = Date.now): (text: string) => void {
  return (text) => {
    for (const msg of text.split('\n'))
      write(JSON.stringify({ level: 30, time: now(), pid: process.pid, hostname: hostname(), msg }));
  };
}

export function serverLogger(
  level: string,
  format: string | undefined,
  isTTY: boolean,
  destination?: Writable,
  colour = isTTY,
): LogChoice {
  if (logsJson(format, isTTY)) {
    return { logger: destination ? { level, stream: destination } : { level }, pretty: false };
  }
  const stream = pretty({
    colorize: colour && !destination,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    // A warning or a failure names its request's id, the one a 500's answer gives (D29).
    messageFormat: (log, key) => {
      const message = String(log[key] ?? '');
      return typeof log.reqId === 'string' && Number(log.level) >= 40 ? `${message} (request ${log.reqId})` : message;
    },
    singleLine: true,
    sync: true,
    ...(destination ? { destination } : {}),
  });
  return { logger: { level, stream }, pretty: true };
}
