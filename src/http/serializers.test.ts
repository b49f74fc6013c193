import { describe, expect, it } from 'vitest';
import { sharedSerializers } from './serializers.ts';

const schema = {
  type: 'object',
  properties: { data: { type: 'object', properties: { n: { type: 'integer' }, list: { type: 'array' } } } },
};
const build = () => sharedSerializers()(undefined, {})({ schema });

describe('response serializers', () => {
  it('serialize a frozen answer once, and give the same bytes each time it is asked for', () => {
    const serialize = build();
    let reads = 0;
    const answer = Object.freeze({
      get n() {
        reads++;
        return 7;
      },
      list: Object.freeze([1, 2]),
    });
    const first = serialize({ data: answer });
    expect(first).toBe('{"data":{"n":7,"list":[1,2]}}');
    expect(serialize({ data: answer })).toBe(first);
    expect(reads).toBe(1);
    // Another answer of the same shape is its own.
    expect(serialize({ data: Object.freeze({ n: 8 }) })).toBe('{"data":{"n":8}}');
  });

  it('serialize an answer that is not frozen afresh every time', () => {
    const serialize = build();
    const answer = { n: 1 };
    expect(serialize({ data: answer })).toBe('{"data":{"n":1}}');
    answer.n = 2;
    expect(serialize({ data: answer })).toBe('{"data":{"n":2}}');
  });

  it('serialize an envelope with more than data afresh, frozen answer or not', () => {
    const serialize = sharedSerializers()(undefined, {})({
      schema: {
        type: 'object',
        properties: { data: { type: 'object', properties: { n: { type: 'integer' } } }, extra: { type: 'string' } },
      },
    });
    const answer = Object.freeze({ n: 1 });
    expect(serialize({ data: answer, extra: 'a' })).toBe('{"data":{"n":1},"extra":"a"}');
    expect(serialize({ data: answer, extra: 'b' })).toBe('{"data":{"n":1},"extra":"b"}');
  });

  it('build a serializer on its first use, not when the route is registered', () => {
    // A reference to nothing: building this schema fails, so the failure shows when the build runs.
    const serialize = sharedSerializers()(undefined, {})({
      schema: { type: 'object', properties: { n: { $ref: '#/definitions/missing' } } },
    });
    expect(() => serialize({ n: 1 })).toThrow(/missing/);
  });
});
