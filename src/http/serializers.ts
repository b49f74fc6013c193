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
        serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], own) as Serialize;
        built.set(key, serialize);
      }
      return serialize;
    };
  };
}
