import { offeredKey } from './auth.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DeskError, type ErrorCode } from '../domain/errors.ts';
import { storeTrouble } from '../store/trouble.ts';
import { redactToken } from './redact-url.ts';
import { NOT_JSON } from './body.ts';
import { echoed } from '../domain/text.ts';

// The one place where errors become HTTP: domain codes to statuses, framework errors to the
// contract's codes, anything else to a logged 500 with a fixed message.

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  no_desk: 403,
  not_permitted: 403,
  not_found: 404,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  internal_error: 500,
};

export const INTERNAL_MESSAGE = 'Something went wrong at the desk end. Try again with the same Idempotency-Key.';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

export interface HttpAnswer {
  status: number;
  body: unknown;
}

function validationMessage(err: FastifyError): string {
  const v = err.validation?.[0];
  if (!v) return err.message;
  const ctx = err.validationContext ?? 'request';
  const where = v.instancePath
    ? v.instancePath.replace(/^\//, '').replace(/\//g, '.')
    : (v.params as { missingProperty?: string })?.missingProperty;
  if (v.keyword === 'additionalProperties')
    return `${ctx} has an unknown field "${echoed((v.params as { additionalProperty?: string }).additionalProperty)}".`;
  if (v.keyword === 'required') return `${ctx} needs "${(v.params as { missingProperty?: string }).missingProperty}".`;
  return where
    ? `${ctx} field "${echoed(where)}" ${v.message ?? 'is not valid'}.`
    : `${ctx} ${v.message ?? 'is not valid'}.`;
}

/** Turns any thrown value into the status and envelope the contract promises. */
export function answerFor(err: unknown, request: FastifyRequest): HttpAnswer {
  if (err instanceof DeskError) {
    const body: ErrorBody = {
      error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
    };
    return { status: STATUS_OF[err.code], body };
  }
  const fe = err as FastifyError;
  if (fe && typeof fe === 'object') {
    if (fe.validation) {
      return { status: 400, body: { error: { code: 'bad_request', message: validationMessage(fe) } } };
    }
    switch (fe.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return {
          status: 413,
          body: { error: { code: 'payload_too_large', message: 'The request body is larger than 1 MiB.' } },
        };
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return { status: 400, body: { error: { code: 'bad_request', message: NOT_JSON } } };
    }
    if (fe.statusCode === 429) {
      return { status: 429, body: { error: { code: 'rate_limited', message: fe.message } } };
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return { status: 400, body: { error: { code: 'bad_request', message: fe.message } } };
    }
    // Nothing is half-written: the store undid the transaction whole.
    const trouble = storeTrouble(fe);
    if (trouble) {
      request.log[trouble.level]({ err }, trouble.log);
      return { status: 503, body: { error: { code: 'unavailable', message: trouble.message } } };
    }
  }
  // Which request, said in the line itself: a readable log shows the message, not the fields beside it.
  request.log.error({ err }, `${request.method} ${redactToken(request.url)} failed`);
  return {
    status: 500,
    body: { error: { code: 'internal_error', message: INTERNAL_MESSAGE, details: { request_id: request.id } } },
  };
}

const HEADERS_TOO_LARGE =
  "The request's headers are larger than 16 KiB: send a shorter key, cursor or Idempotency-Key.";
const NOT_HTTP =
  'The request is not readable HTTP: a header holds a byte no header may hold, or the request is cut short.';
const TOO_SLOW =
  'The request did not arrive in time: its headers must come within a minute, and the whole of it within five.';
const LENGTH =
  "The request's Content-Length is not readable: give it once, as a whole number, and not beside Transfer-Encoding.";

/** What Node's parser found wrong, said by what it is (P-headers-3). */
export const UNSPOKEN_VERSION = 'The request names an HTTP version the desk does not speak: send HTTP/1.1.';
const UNREADABLE: Record<string, string> = {
  HPE_HEADER_OVERFLOW: HEADERS_TOO_LARGE,
  ERR_HTTP_REQUEST_TIMEOUT: TOO_SLOW,
  HPE_UNEXPECTED_CONTENT_LENGTH: LENGTH,
  HPE_INVALID_CONTENT_LENGTH: LENGTH,
  HPE_INVALID_TRANSFER_ENCODING:
    "The request's Transfer-Encoding is not readable: send the body whole (with Content-Length) or chunked, with no other coding.",
  HPE_INVALID_CHUNK_SIZE: "The request's chunked body is not readable: a chunk's size is not a hexadecimal number.",
  HPE_INVALID_VERSION: UNSPOKEN_VERSION,
  HPE_INVALID_URL: "The request's path is not readable: it starts with / and holds no space or control byte.",
};

/**
 * What to write on a connection whose request Node's parser refused before any route saw it
 * (headers too large or too slow, a control byte in a header): the contract's envelope, status 400, as for
 * any other request refused as unreadable, and the connection then closes.
 */
export function clientErrorResponse(err: { code?: string; rawPacket?: Buffer; bytesParsed?: number }): string {
  // A method Node does not know (`BREW`, `get`) is a route no one serves, as PURGE is (D28).
  if (err.code === 'HPE_INVALID_METHOD') {
    const line = /^([!-~]{1,40}) (\/[!-~]{0,200}) HTTP\//.exec(failedLine(err));
    const message = line ? `No route ${line[1]} ${line[2]!.split('?')[0]}.` : 'No route takes that method.';
    return rawAnswer('404 Not Found', { error: { code: 'not_found', message } });
  }
  const message = (err.code && UNREADABLE[err.code]) ?? NOT_HTTP;
  return rawAnswer('400 Bad Request', { error: { code: 'bad_request', message } });
}

/** A character a method name may hold (RFC 9110 `tchar`). */
const TCHAR = /[-!#$%&'*+.^_`|~0-9A-Za-z]/;

/**
 * The request the parser stopped on. The packet may begin with a request before it on the same
 * connection (bytes after a body are read as the next request), so it starts at the method
 * holding the place where parsing stopped, not at the packet's start.
 */
function failedLine(err: { rawPacket?: Buffer; bytesParsed?: number }): string {
  const packet = err.rawPacket?.toString('latin1') ?? '';
  let start = Math.min(err.bytesParsed ?? 0, packet.length);
  while (start > 0 && TCHAR.test(packet[start - 1]!)) start--;
  return packet.slice(start);
}

/**
 * The answer to a request whose `Expect` header asks for something other than `100-continue`,
 * which Node would otherwise refuse with a bare 417 before any route saw it (P-headers-3).
 */
export function refuseExpectation(req: IncomingMessage, res: ServerResponse): void {
  const asked = String(req.headers.expect ?? '');
  const shown = asked.length > 100 ? `${asked.slice(0, 100)}...` : asked;
  const message = `The desk cannot meet the expectation "${shown}" (Expect header); it understands only 100-continue. Send the request without it.`;
  const body = JSON.stringify({ error: { code: 'bad_request', message } } satisfies ErrorBody);
  res
    .writeHead(400, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
      connection: 'close',
    })
    .end(body);
}

/**
 * A CONNECT request (a proxy's tunnel), which Node hands to no route and, with nobody listening,
 * closes without a word: a method no route serves, 404 in the envelope (D28, P-headers-3).
 */
export function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  const target = (req.url ?? '').split('?')[0]!.slice(0, 200);
  const message = /^[!-~]+$/.test(target) ? `No route CONNECT ${target}.` : 'No route takes that method.';
  socket.on('error', () => socket.destroy());
  socket.end(rawAnswer('404 Not Found', { error: { code: 'not_found', message } }));
}

/** A whole answer written on the socket itself, with the headers every answer carries (P-headers-1). */
function rawAnswer(status: string, envelope: ErrorBody): string {
  const body = JSON.stringify(envelope);
  return [
    `HTTP/1.1 ${status}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** RFC 6750's challenge: no error code when no bearer key came, and which fault when one did. */
function challenge(request: FastifyRequest): string {
  const offered = offeredKey(request);
  if (offered.kind === 'none' || offered.kind === 'other') return 'Bearer realm="desk"';
  return `Bearer realm="desk", error="${offered.kind === 'key' ? 'invalid_token' : 'invalid_request'}"`;
}

export function sendError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = answerFor(err, request);
  if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
  if (status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
  if (status === 401) reply.header('www-authenticate', challenge(request));
  return reply.code(status).send(body);
}
