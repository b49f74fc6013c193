import type { LanguageModel, ModelMessage, ModelToolCall } from '../../domain/ports.ts';
import { storable } from '../../domain/text.ts';

// The language-model client: one round against an OpenAI-compatible chat completions
// endpoint (DESK_LLM_URL). It knows the wire format and nothing of the desk; what to ask and
// what to do with the tool calls is app/chat/llm.ts.

export interface OpenAiModelOptions {
  /** DESK_LLM_URL: a base URL (`/chat/completions` is added) or the full endpoint. */
  url: string;
  model: string;
  key: string | null;
}

/** P-chat-2: a URL already ending in /chat/completions is used as given; otherwise that path is added. */
export function completionsUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

export class LlmFailure extends Error {}

export class OpenAiModel implements LanguageModel {
  private readonly endpoint: string;

  constructor(private readonly opts: OpenAiModelOptions) {
    this.endpoint = completionsUrl(opts.url);
  }

  async complete(messages: ModelMessage[], tools: readonly object[], signal: AbortSignal): Promise<ModelMessage> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.key) headers.authorization = `Bearer ${this.opts.key}`;
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: this.opts.model, messages, tools, tool_choice: 'auto' }),
      signal,
    });
    if (!res.ok) throw new LlmFailure(`The language model answered HTTP ${res.status}.`);
    let body: { choices?: Array<{ message?: ModelMessage }> };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new LlmFailure('The language model did not answer JSON.');
    }
    const message = body?.choices?.[0]?.message;
    if (!message || typeof message !== 'object') throw new LlmFailure('The language model answered without a message.');
    // What the model writes may be stored (a block's title, say), on either database. A tool
    // call's arguments are JSON text, made storable once read (llm.ts): made so as text, the
    // mark closing a writing direction would land after the JSON and leave it unreadable.
    const { tool_calls: calls, ...rest } = message;
    const kept = storable(rest);
    if (!Array.isArray(calls)) return kept;
    return {
      ...kept,
      tool_calls: calls.map((c) => {
        const { arguments: args, ...fn } = (c?.function ?? {}) as ModelToolCall['function'];
        return { ...storable({ ...c, function: fn }), function: { ...storable(fn), arguments: args } };
      }),
    };
  }
}
