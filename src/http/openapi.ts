import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { OpenAPIV3_1 } from 'openapi-types';

export const TAGS = [
  { name: 'Meta', description: "The description, the key check and the key's own summary." },
  { name: 'Work', description: 'The open queue, and what a program may do to a row: complete, snooze, draft, run.' },
  { name: 'Arrangements', description: 'Long-running relationships and the notes on them.' },
  {
    name: 'Desk',
    description: 'How the desk is composed: sections, units, connections, domains, permissions and watches.',
  },
  { name: 'Record', description: "What was written or sent, and the desk's own log." },
  { name: 'Chat', description: 'Ask the desk a question.' },
];

/** The headers the service sends, described once and referred to from each response that carries them. */
const HEADERS: Record<string, OpenAPIV3_1.HeaderObject> = {
  'X-Request-Id': {
    description: 'Names this request in the server log; a 500 repeats it as error.details.request_id.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per minute for this key (or this address without a key).',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current minute ends and the count starts again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate': {
    description:
      'The scheme the key is sent in (RFC 6750): `Bearer realm="desk"`, with `error="invalid_token"` when a key came and was refused, and `error="invalid_request"` when one came in a shape or place that cannot be taken.',
    required: true,
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description:
      'Present, as `true`, when this is the stored first answer to the same Idempotency-Key (status and body as they were), and nothing was done again.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * Answers a write stores under its Idempotency-Key and so may replay: those its handler gives.
 * A 401, 413 or 429 comes before the handler and a 5xx is never stored.
 */
const replayable = (status: string) => status.startsWith('2') || ['400', '403', '404'].includes(status);

type Operation = OpenAPIV3_1.OperationObject;

function isWrite(op: Operation): boolean {
  return (op.parameters ?? []).some(
    (p) => !('$ref' in p) && p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
  );
}

/** Whether an object schema asks for nothing: then a client may send no body at all (D28). */
function allOptional(schema: unknown): boolean {
  const s = schema as { type?: string; required?: string[] } | undefined;
  return !!s && s.type === 'object' && (s.required ?? []).length === 0;
}

/**
 * What the route schemas cannot say for themselves, applied to every operation alike so a new
 * route gets it too: a body whose fields are all optional is not required; `{id}` and `limit`
 * are described as the integers of the contract although the service accepts any text for
 * them (P-3); and the headers each answer carries.
 */
function describeOperation(op: Operation, method: string): void {
  const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  if (body && Object.values(body.content ?? {}).every((m) => allOptional(m.schema))) body.required = false;

  for (const p of op.parameters ?? []) {
    if ('$ref' in p) continue;
    if (p.in === 'path' && p.name === 'id') p.schema = { type: 'integer', minimum: 1 };
    if (p.in === 'query' && p.name === 'limit') p.schema = { type: 'integer', minimum: 1, maximum: 200, default: 50 };
  }

  // ?token= is taken on reads only (P-keys-4): a write names the header alone.
  if (method !== 'get' && op.security === undefined) op.security = [{ bearerKey: [] }];

  const write = isWrite(op);
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if ('$ref' in response) continue;
    const headers: Record<string, unknown> = {
      'X-Request-Id': header('X-Request-Id'),
      'X-RateLimit-Limit': header('X-RateLimit-Limit'),
      'X-RateLimit-Remaining': header('X-RateLimit-Remaining'),
      'X-RateLimit-Reset': header('X-RateLimit-Reset'),
    };
    if (status === '429' || status === '503') headers['Retry-After'] = header('Retry-After');
    if (status === '401') headers['WWW-Authenticate'] = header('WWW-Authenticate');
    if (write && replayable(status)) headers['Idempotent-Replayed'] = header('Idempotent-Replayed');
    response.headers = headers as Record<string, OpenAPIV3_1.HeaderObject>;
  }
}

export const openapiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Desk API',
      version: 'v1',
      description:
        "Read a business's running obligations and work them. One key belongs to one desk. " +
        'Some 200 responses carry bad news (drafted: false, ok: false, delivered: false, timed_out: true); ' +
        '`kind` is an open string; no_desk and not_permitted are both 403 and differ in error.code; ' +
        '/work/{id}/run takes minutes and /chat up to four. ' +
        'Every write takes an Idempotency-Key: keep it across retries of one intent. ' +
        'Retry 429 after Retry-After seconds, and 500 with back-off; never another 4xx.',
    },
    servers: [{ url: '/api/v1' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer desk_… The header wins when both it and ?token= are sent.',
        },
        tokenQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description:
            'The same key as ?token=, for a quick check in a browser: taken on reads (GET) only, and kept out of the server log. A write sends the Authorization header.',
        },
      },
    },
    security: [{ bearerKey: [] }, { tokenQuery: [] }],
  },
  transformObject(documentObject) {
    const doc = ('openapiObject' in documentObject
      ? documentObject.openapiObject
      : documentObject.swaggerObject) as unknown as OpenAPIV3_1.Document;
    // With the server at /api/v1, the key-check route `/` would otherwise be listed as "".
    const paths = (doc.paths ?? {}) as Record<string, OpenAPIV3_1.PathItemObject>;
    doc.paths = Object.fromEntries(Object.entries(paths).map(([k, v]) => [k === '' ? '/' : k, v]));
    for (const item of Object.values(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const op = item?.[method];
        if (op) describeOperation(op, method);
      }
    }
    doc.components = { ...doc.components, headers: HEADERS };
    return doc as never;
  },
  // Shared schemas keep their own names ($id) as components instead of def-N.
  refResolver: {
    buildLocalReference(json, _baseUri, _fragment, i) {
      return typeof json.$id === 'string' ? json.$id : `def-${i}`;
    },
  },
};
