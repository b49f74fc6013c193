import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { reply, startFakeLlm, toolCall, toolResult, type FakeLlm } from '../helpers/llm.ts';
import { completionsUrl } from '../../src/adapters/llm/client.ts';
import { bakeryDesk } from './chat-desk.ts';
import { eventsOf } from './writes-helpers.ts';

// The language-model backend against a fake OpenAI-compatible endpoint on loopback: what it
// sends, the tool calls it carries out, blocks saved only with an answer in time, and the
// time-out that changes nothing.

describe('the completions address', () => {
  it('adds /chat/completions to a base URL and keeps a full endpoint as given', () => {
    expect(completionsUrl('http://127.0.0.1:9/v1')).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(completionsUrl('http://127.0.0.1:9/v1/')).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(completionsUrl('https://llm.example/openai/v1/chat/completions')).toBe(
      'https://llm.example/openai/v1/chat/completions',
    );
  });
});

describe.each(DIALECTS)('POST /chat with a language model ($name)', ({ open }) => {
  let store: TestStore;
  let llm: FakeLlm;
  let h: Harness;
  let slow: Harness;
  let desk: Awaited<ReturnType<typeof bakeryDesk>>;
  const ask = (app: Harness, text: string, headers: Record<string, string> = {}) =>
    app.call('POST', '/api/v1/chat', { key: desk.key, body: { text }, headers });
  const sectionIds = async () =>
    (
      await store.db
        .selectFrom('sections')
        .select('id')
        .where('desk_id', '=', desk.desk.id)
        .orderBy('position')
        .execute()
    ).map((s) => s.id);

  beforeAll(async () => {
    store = await open();
    llm = await startFakeLlm();
    const config = { llmUrl: llm.url, llmKey: 'sk-test', llmModel: 'test-model' };
    h = await harness(store, { config });
    slow = await harness(store, { config: { ...config, chatTimeoutMs: 300 } });
    desk = await bakeryDesk(store.db);
  });
  afterAll(async () => {
    await h.close();
    await slow.close();
    await llm.close();
    await store.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  it("sends the question with the desk's facts and the read-only tools, and answers with the model's words", async () => {
    llm.handle = () => reply('Two rows are overdue.');
    const res = await ask(h, '  what is overdue?  ');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      question: 'what is overdue?',
      answer: 'Two rows are overdue.',
      timed_out: false,
      desk_added: [],
    });

    expect(llm.requests).toHaveLength(1);
    const [req] = llm.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe('Bearer sk-test');
    expect(req!.body.model).toBe('test-model');
    const [system, user] = req!.body.messages;
    expect(user).toEqual({ role: 'user', content: 'what is overdue?' });
    expect(system.role).toBe('system');
    expect(system.content).toContain('Desk: Corner Bakery Ltd. Today is 2026-11-22 (UTC).');
    expect(system.content).toContain('overdue: 2; out with somebody: 2');
    expect(system.content).toContain('Granted classes (the desk acts without asking): chase, reach_out.');
    expect(system.content).toContain('Mailbox: Shop mailbox (smtp) is connected.');
    expect(system.content).not.toContain('hunter2');
    expect(req!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'list_work',
      'get_work',
      'list_arrangements',
      'list_units',
      'list_domains',
      'mailbox',
      'permissions',
      'list_watches',
      'list_sections',
      'add_section',
    ]);
    const chat = (await eventsOf(store.db, desk.desk.id, 'chat')).at(-1)!;
    expect(chat.data).toMatchObject({ question: 'what is overdue?', timed_out: false, backend: 'llm', sections: [] });
  });

  it('carries out the tool calls the model asks for, and the answer uses what they returned', async () => {
    llm.handle = (req, n) => {
      if (n === 1) return toolCall('call_1', 'list_work', { filter: 'overdue' });
      if (n === 2) return toolCall('call_2', 'get_work', { id: desk.rows.flour.id });
      const overdue = toolResult(req, 'call_1');
      const flour = toolResult(req, 'call_2');
      const names = overdue.items.map((i: { title: string; id: number }) => `"${i.title}" (#${i.id})`).join(' and ');
      return reply(`Overdue: ${names}. ${flour.item.title} is due ${flour.item.due_date} on ${flour.arrangement}.`);
    };
    const res = await ask(h, 'what is overdue, and when is the flour invoice due?');
    const { rows } = desk;
    expect(res.json().data.answer).toBe(
      `Overdue: "${rows.council.title}" (#${rows.council.id}) and "${rows.vat.title}" (#${rows.vat.id}). Pay the flour invoice is due 2026-11-27 on Flour supply.`,
    );

    expect(llm.requests).toHaveLength(3);
    const third = llm.requests[2]!.body.messages as Array<{ role: string; tool_calls?: unknown[] }>;
    expect(third.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    const overdue = toolResult(llm.requests[2]!, 'call_1');
    expect(overdue.total).toBe(2);
    expect(overdue.items[0]).toMatchObject({
      id: rows.council.id,
      overdue: true,
      days_to_due: -3,
      action: { type: 'wait' },
    });
  });

  it('a bad tool call is told back to the model, which can still answer', async () => {
    llm.handle = (req, n) =>
      n === 1 ? toolCall('c1', 'delete_everything', {}) : reply(`The tool said: ${toolResult(req, 'c1').error}`);
    expect((await ask(h, 'delete everything')).json().data.answer).toBe(
      'The tool said: There is no tool called "delete_everything".',
    );
  });

  it('a block the model adds with add_section is saved when its answer arrives in time, and reported', async () => {
    llm.handle = (_req, n) =>
      n === 1
        ? toolCall('s1', 'add_section', {
            title: 'Repairs',
            // Not one of the tool's fields: the block's id is its title's (P-chat-5).
            id: 'obligations',
            blurb: 'Things being fixed',
            kind: 'work',
            kinds: ['repair'],
            why: 'The owner asked.',
          })
        : reply('I added a Repairs block.');
    const before = (await eventsOf(store.db, desk.desk.id, 'section_added')).length;
    const data = (await ask(h, 'add a block for repairs')).json().data;
    expect(data).toEqual({
      question: 'add a block for repairs',
      answer: 'I added a Repairs block.',
      timed_out: false,
      desk_added: [
        {
          id: 'repairs',
          title: 'Repairs',
          blurb: 'Things being fixed',
          kind: 'work',
          kinds: ['repair'],
          unit: null,
          fields: [],
          why: 'The owner asked.',
        },
      ],
    });
    expect(await sectionIds()).toEqual(['obligations', 'sites', 'repairs']);
    expect(await eventsOf(store.db, desk.desk.id, 'section_added')).toHaveLength(before + 1);
  });

  it("the model's words are stored alike on both databases: NUL characters dropped, lone surrogates replaced", async () => {
    llm.handle = (_req, n) =>
      n === 1
        ? toolCall('s1', 'add_section', { title: 'Odd\u0000 block \ud83d', kind: 'work', kinds: ['odd'] })
        : reply('Added\u0000 it.');
    const res = await ask(h, 'add an odd block');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ answer: 'Added it.', desk_added: [{ title: 'Odd block \uFFFD' }] });
    const stored = await store.db
      .selectFrom('sections')
      .select('title')
      .where('desk_id', '=', desk.desk.id)
      .where('title', 'like', 'Odd%')
      .execute();
    expect(stored.map((x) => x.title)).toEqual(['Odd block \uFFFD']);
  });

  it("a block in right-to-left words, with a mark that opens a direction, is the model's block as written", async () => {
    llm.handle = (_req, n) =>
      n === 1
        ? toolCall('s1', 'add_section', {
            title: 'Rent in Arabic',
            blurb: 'إيجار \u202bالمحل',
            kind: 'work',
            kinds: ['rent'],
          })
        : reply('Added it.');
    const data = (await ask(h, 'add a block for the rent')).json().data;
    expect(data.desk_added).toEqual([expect.objectContaining({ title: 'Rent in Arabic', kinds: ['rent'] })]);
    expect(data.desk_added[0].blurb).toMatch(/^إيجار \u202bالمحل\u202c$/);
  });

  it('a block the model titles with nothing a person can see is refused as untitled, and nothing is added', async () => {
    llm.handle = (req, n) => {
      if (n === 1) return toolCall('s1', 'add_section', { title: '\u200b\u200d', kind: 'work', kinds: ['x'] });
      return reply(JSON.stringify(toolResult(req, 's1')));
    };
    const before = await sectionIds();
    const data = (await ask(h, 'add an invisible block')).json().data;
    expect(data.answer).toBe('{"error":"A block needs a title."}');
    expect(data.desk_added).toEqual([]);
    expect(await sectionIds()).toEqual(before);
  });

  it('arguments a model sends as an object, not as JSON text, are made storable all the same', async () => {
    llm.handle = (_req, n) =>
      n === 1
        ? toolCall(
            's1',
            'add_section',
            { title: 'Obj\u0000 block \ud83d', kind: 'work', kinds: ['odd\u0000'] },
            { asObject: true },
          )
        : reply('Added it.');
    const res = await ask(h, 'add an object block');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.desk_added).toEqual([
      expect.objectContaining({ title: 'Obj block \uFFFD', kinds: ['odd'] }),
    ]);
  });

  it('"Other work" with a character that draws nothing in it is still the desk\'s own title', async () => {
    for (const title of ['Other work\u200b', 'Other\u200b work']) {
      llm.handle = (_req, n) =>
        n === 1 ? toolCall('s1', 'add_section', { title, kind: 'work', kinds: ['x'] }) : reply('Done.');
      const data = (await ask(h, `add ${title}`)).json().data;
      expect(data.desk_added).toEqual([]);
    }
  });

  it('a block the model gives thousands of kinds and fields keeps the first 50 of each', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `kind_${i}`);
    llm.handle = (_req, n) =>
      n === 1
        ? toolCall('s1', 'add_section', {
            title: 'Everything',
            kind: 'work',
            kinds: many,
            fields: many.map((name) => ({ name, hint: 'h' })),
          })
        : reply('Added it.');
    const data = (await ask(h, 'add a block for everything')).json().data;
    expect(data.desk_added[0].kinds).toEqual(many.slice(0, 50));
    const stored = await store.db
      .selectFrom('sections')
      .select(['kinds', 'fields'])
      .where('desk_id', '=', desk.desk.id)
      .where('title', '=', 'Everything')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.kinds)).toHaveLength(50);
    expect(JSON.parse(stored.fields)).toHaveLength(50);
  });

  it('an answer later than the chat timeout is timed_out with answer null, and the block it asked for is not saved', async () => {
    let release!: () => void;
    const never = new Promise<void>((resolve) => (release = resolve));
    llm.handle = async (_req, n) => {
      if (n === 1) return toolCall('s1', 'add_section', { title: 'Too late', kind: 'dates' });
      await never;
      return reply('Added it.');
    };
    const sectionsBefore = await sectionIds();
    const addedBefore = (await eventsOf(store.db, desk.desk.id, 'section_added')).length;
    const res = await ask(slow, 'add a block for late things');
    release();
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      question: 'add a block for late things',
      answer: null,
      timed_out: true,
      desk_added: [],
    });
    expect(llm.requests).toHaveLength(2); // the model did ask for the block
    expect(await sectionIds()).toEqual(sectionsBefore);
    expect(await eventsOf(store.db, desk.desk.id, 'section_added')).toHaveLength(addedBefore);
    expect((await eventsOf(store.db, desk.desk.id, 'chat')).at(-1)!.data).toEqual({
      question: 'add a block for late things',
      timed_out: true,
    });
  });

  it('a model that answers nothing in time gives timed_out too, and the same question may be asked again', async () => {
    llm.handle = () => new Promise(() => undefined);
    const res = await ask(slow, 'what needs me this week?');
    expect(res.json().data).toEqual({
      question: 'what needs me this week?',
      answer: null,
      timed_out: true,
      desk_added: [],
    });
    llm.handle = () => reply('Three rows need you.');
    expect((await ask(slow, 'what needs me this week?')).json().data).toMatchObject({
      answer: 'Three rows need you.',
      timed_out: false,
    });
  });

  it('when the model fails, the built-in answerer answers and the log says why', async () => {
    llm.handle = () => ({ status: 500, body: { error: 'overloaded' } });
    const data = (await ask(h, 'what is overdue?')).json().data;
    expect(data.answer).toMatch(/^2 rows are overdue\. /);
    expect((await eventsOf(store.db, desk.desk.id, 'chat')).at(-1)!.data).toMatchObject({
      backend: 'builtin',
      fallback_reason: 'The language model answered HTTP 500.',
    });

    llm.handle = () => ({ choices: [] });
    expect((await ask(h, 'is the mailbox working?')).json().data.answer).toMatch(/^Yes: Shop mailbox/);
  });

  it('a replay with the same Idempotency-Key returns the first answer without asking the model again', async () => {
    llm.handle = () => reply('First answer.');
    const headers = { 'idempotency-key': 'llm-replay-1' };
    const first = await ask(h, 'what are we waiting on?', headers);
    llm.handle = () => reply('Second answer.');
    const second = await ask(h, 'what are we waiting on?', headers);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(first.json().data.answer).toBe('First answer.');
    expect(llm.requests).toHaveLength(1);
  });
});
