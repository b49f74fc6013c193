import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { startFakeLlm, type FakeLlm } from '../helpers/llm.ts';
import { startServerProcess } from '../helpers/process.ts';

// A stop that cuts a call off unanswered (a chat waiting on a model that says nothing) lets go
// of its Idempotency-Key: the client's retry with the same key, after the restart, does the
// work then, rather than waiting out a lease held for a call that can no longer answer.

describe.each(DIALECTS)('a key cut off by a stop ($name)', ({ open }) => {
  let store: TestStore;
  let llm: FakeLlm;

  beforeAll(async () => {
    store = await open();
    llm = await startFakeLlm();
  });
  afterAll(async () => {
    await llm?.close();
    await store?.close();
  });

  it('is free for the retry after the restart', async () => {
    const d = await makeDesk(store.db);
    const headers = {
      authorization: `Bearer ${d.key}`,
      'content-type': 'application/json',
      'idempotency-key': 'chat-cut-off-1',
    };
    const body = JSON.stringify({ text: 'what needs me this week?' });
    const pending = () =>
      store.db.selectFrom('idempotency').select('state').where('key', '=', 'chat-cut-off-1').execute();
    const env = { DESK_LLM_URL: llm.url, DESK_DRAIN_TIMEOUT: '1s' };

    llm.handle = () => new Promise(() => undefined);
    const first = await startServerProcess(store.target, { ...env, DESK_CHAT_TIMEOUT: '10m' });
    // A failed expectation before the stop must not leave the server running.
    onTestFinished(() => first.kill());
    const cut = fetch(`${first.url}/api/v1/chat`, { method: 'POST', headers, body }).then(
      (r) => r.status,
      () => 'cut off',
    );
    for (let i = 0; i < 400 && llm.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await pending()).toEqual([{ state: 'pending' }]);
    await first.stop();
    expect(await cut).toBe('cut off');
    expect(await pending()).toEqual([]);

    llm.handle = () => ({
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Two rows.' } }],
    });
    const again = await startServerProcess(store.target, env);
    try {
      const res = await fetch(`${again.url}/api/v1/chat`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(20_000),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect((await res.json()).data).toMatchObject({ answer: 'Two rows.', timed_out: false });
    } finally {
      await again.stop();
    }
  }, 120_000);
});
