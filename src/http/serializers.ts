import { createHash } from 'node:crypto';
import fastJsonStringify, { type Options } from 'fast-json-stringify';

type Serialize = (data: unknown) => string;
type Schemas = NonNullable<Options['schema']>;

// Fastify builds a serializer for every route and status when the server starts, and building
// them was most of what start-up cost. Most of ours are the same schema (the error envelope is
// described on every route for every refusal), so each is built once, keyed by everything the
// build reads: the schema, the external schemas it may refer to, and the options. The function
// is pure, so sharing it is invisible; the output is the same as Fastify's own builder's.
const built = new Map<string, Serialize>();

function fingerprint(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value) ?? '')
    .digest('base64url');
}

/**
 * The answer inside an envelope `{ data }` when it is frozen: a remembered answer (P-speed-5),
 * deep-frozen and shared by every request while the store is unchanged, so its bytes cannot
 * change either.
 */
function frozenAnswer(payload: unknown): object | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const data = (payload as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return undefined;
  for (const field in payload) if (field !== 'data') return undefined;
  return data;
}

/**
 * `serialize`, remembering the bytes of each frozen answer for as long as the answer itself is
 * kept: the same question asked again while nothing changed is not serialized again (P-speed-8).
 */
function rememberingBytes(serialize: Serialize): Serialize {
  const bytes = new WeakMap<object, string>();
  return (payload) => {
    const answer = frozenAnswer(payload);
    if (answer === undefined) return serialize(payload);
    let out = bytes.get(answer);
    if (out === undefined) {
      out = serialize(payload);
      bytes.set(answer, out);
    }
    return out;
  };
}

export function sharedSerializers() {
  return (externalSchemas?: unknown, serializerOpts?: Options) => {
    const opts: Options = { ...serializerOpts, schema: externalSchemas as Schemas | undefined };
    const context = fingerprint(opts);
    return ({ schema }: { schema?: unknown }): Serialize => {
      const key = `${context} ${JSON.stringify(schema)}`;
      let serialize = built.get(key);
      if (!serialize) {
        // As Fastify's builder does: a schema is not its own external schema.
        const id = (schema as { $id?: string }).$id;
        let own = opts;
        if (id && own.schema?.[id]) {
          const { [id]: _self, ...others } = own.schema;
          own = { ...own, schema: others };
        }
        // Built on its first use, not at start: most routes and refusals are not answered in a
        // server's first seconds, and building them all was a fifth of `desk serve`'s start.
        let made: Serialize | undefined;
        const make = () =>
          rememberingBytes(fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], own) as Serialize);
        serialize = (payload) => {
          made ??= make();
          return made(payload);
        };
        built.set(key, serialize);
      }
      return serialize;
    };
  };
}
