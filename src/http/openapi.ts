import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';

export const TAGS = [
  { name: 'Meta', description: "The description, the key check and the key's own summary." },
  { name: 'Work', description: 'The open queue and the five things a program may do to a row.' },
  { name: 'Arrangements', description: 'Long-running relationships and the notes on them.' },
  {
    name: 'Desk',
    description: 'How the desk is composed: sections, units, connections, domains, permissions and watches.',
  },
  { name: 'Record', description: "What was written or sent, and the desk's own log." },
  { name: 'Chat', description: 'Ask the desk a question.' },
];

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
        '/work/{id}/run takes minutes and /chat up to four.',
    },
    servers: [{ url: '/api/v1' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer desk_… (or ?token= for a quick browser check).',
        },
      },
    },
    security: [{ bearerKey: [] }],
  },
  // With the server at /api/v1, the key-check route `/` would otherwise be listed as "".
  transformObject(documentObject) {
    const doc = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
    const paths = (doc.paths ?? {}) as Record<string, unknown>;
    if ('' in paths) {
      doc.paths = Object.fromEntries(
        Object.entries(paths).map(([k, v]) => [k === '' ? '/' : k, v]),
      ) as typeof doc.paths;
    }
    return doc;
  },
  // Shared schemas keep their own names ($id) as components instead of def-N.
  refResolver: {
    buildLocalReference(json, _baseUri, _fragment, i) {
      return typeof json.$id === 'string' ? json.$id : `def-${i}`;
    },
  },
};
