import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A fake OpenAI-compatible chat completions endpoint on loopback. Each test sets `handle`,
// which sees the request body and the number of the call, and returns the JSON to answer,
// or { status, body } for an error, or never resolves to play a model that does not answer.

export interface LlmRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export type LlmAnswer = { status: number; body: unknown } | Record<string, unknown>;

export interface FakeLlm {
  /** Base address to give as DESK_LLM_URL, e.g. http://127.0.0.1:40123/v1 */
  url: string;
  requests: LlmRequest[];
  handle: (req: LlmRequest, n: number) => Promise<LlmAnswer> | LlmAnswer;
  close(): Promise<void>;
}

/** A model's call of a tool; `asObject` sends the arguments as an object, as a few servers do, not as JSON text. */
export function toolCall(id: string, name: string, args: Record<string, unknown>, o: { asObject?: boolean } = {}) {
  return {
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id, type: 'function', function: { name, arguments: o.asObject ? args : JSON.stringify(args) } },
          ],
        },
      },
    ],
  };
}

export function reply(content: string) {
  return { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] };
}

/** The content of the tool message answering `id` in a request the desk sent. */
export function toolResult(req: LlmRequest, id: string): any {
  const m = (req.body.messages as Array<{ role: string; tool_call_id?: string; content: string }>).find(
    (x) => x.role === 'tool' && x.tool_call_id === id,
  );
  return m ? JSON.parse(m.content) : undefined;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const sockets = new Set<Socket>();
  const fake: FakeLlm = {
    url: '',
    requests: [],
    handle: () => reply('Nothing to say.'),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: LlmRequest = {
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'),
      };
      fake.requests.push(request);
      void Promise.resolve(fake.handle(request, fake.requests.length)).then((answer) => {
        if (res.destroyed) return;
        const isError = typeof answer.status === 'number' && 'body' in answer;
        res.writeHead(isError ? (answer.status as number) : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(isError ? answer.body : answer));
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fake;
}
