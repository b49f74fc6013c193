import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';

// Every response the tests see is checked against the live /openapi.json, so the description
// cannot drift from what the service sends.

type Validator = ReturnType<InstanceType<typeof Ajv2020>['compile']>;
const compiled = new WeakMap<
  FastifyInstance,
  { doc: OpenAPIV3_1.Document; ajv: InstanceType<typeof Ajv2020>; validators: Map<object, Validator> }
>();

function load(app: FastifyInstance) {
  let c = compiled.get(app);
  if (!c) {
    const doc = app.swagger() as unknown as OpenAPIV3_1.Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: unknown) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
    c = { doc, ajv, validators: new Map() };
    compiled.set(app, c);
  }
  return c;
}

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rewriteRefs(v);
    }
    return out;
  }
  return schema;
}

function matchPath(doc: OpenAPIV3_1.Document, path: string): OpenAPIV3_1.PathItemObject | undefined {
  const rel = path.replace(/^\/api\/v1/, '') || '/';
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    // An empty segment (`/work//complete`) reaches the route with an empty id, as the router
    // hands it over, so it is answered as that route describes.
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]*')}/?$`);
    if (re.test(rel)) return item;
  }
  return undefined;
}

export async function checkResponse(
  app: FastifyInstance,
  method: string,
  url: string,
  res: LightMyRequestResponse,
): Promise<void> {
  // The path the server routes, read as inject reads the whole URL (WHATWG URL parsing): dot
  // segments resolved, spaces at either end of the URL trimmed, one inside encoded, a '#'
  // starting a fragment.
  const path = new URL(url, 'http://localhost').pathname;
  if (!path.startsWith('/api/v1')) return;
  const { doc, ajv, validators } = load(app);
  const item = matchPath(doc, path);
  if (!item) {
    if (res.statusCode !== 404)
      throw new Error(`${method} ${path} answered ${res.statusCode} but is not in /openapi.json`);
    return;
  }
  const op = (item as Record<string, OpenAPIV3_1.OperationObject>)[method.toLowerCase()];
  if (!op) return;
  const response = (op.responses?.[String(res.statusCode)] ?? op.responses?.default) as
    | OpenAPIV3_1.ResponseObject
    | undefined;
  if (!response)
    throw new Error(
      `${method} ${path} (sent as ${url}) answered ${res.statusCode}, a status /openapi.json does not list`,
    );
  const schema = (response.content?.['application/json'] as OpenAPIV3_1.MediaTypeObject | undefined)?.schema;
  if (!schema) return;
  // Compiled once per response schema: a long cursor walk checks hundreds of pages.
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema) as object);
    validators.set(schema, validate);
  }
  const body = JSON.parse(res.body);
  if (!validate(body)) {
    throw new Error(
      `${method} ${path} ${res.statusCode} does not match /openapi.json: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 500)}`,
    );
  }
}
