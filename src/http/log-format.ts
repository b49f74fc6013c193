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

export function serverLogger(
  level: string,
  format: string | undefined,
  isTTY: boolean,
  destination?: Writable,
  colour = isTTY,
): LogChoice {
  if (format === 'json' || (format !== 'pretty' && !isTTY)) {
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
