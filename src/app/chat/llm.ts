import type { DeskContext } from '../../domain/context.ts';
import { listDomains } from '../../domain/desks/domains.ts';
import { permissionSummary } from '../../domain/desks/permissions.ts';
import { listSections, type SectionDraft } from '../../domain/desks/sections.ts';
import { grantsOf } from '../../store/repositories/desks.ts';
import type { ChatBackend, ChatReply, LanguageModel, ModelMessage } from '../../domain/ports.ts';
import { mailConnections, overdueWork, waitingWork } from './facts.ts';
import { runTool, TOOLS } from './tools.ts';
import { money } from './words.ts';
import { storable, storedObject } from '../../domain/text.ts';

// The language-model answerer: it sends the question with the desk's facts and the read-only
// tools to a language model (a port; the real one is adapters/llm), carries out the tool
// calls the model asks for, and returns the model's final answer. When the model cannot be
// reached or answers nonsense, the built-in answerer answers instead (P-chat-3).

const MAX_ROUNDS = 8;

export interface LlmOptions {
  model: LanguageModel;
  fallback: ChatBackend;
}

class LlmFailure extends Error {}

/** What the model is told about the desk before it reads anything with tools. */
export async function deskFacts(ctx: DeskContext): Promise<string> {
  const d = ctx.desk;
  const overdue = await overdueWork(ctx);
  const waiting = await waitingWork(ctx);
  const perms = await permissionSummary(ctx);
  const grants = [...(await grantsOf(ctx.db, d.id))].sort();
  const mail = await mailConnections(ctx);
  const { summary } = await listDomains(ctx);
  const sections = await listSections(ctx);
  return [
    `Desk: ${d.name}. Today is ${ctx.today()} (${d.timezone}). Money is in ${d.currency}, given in minor units.`,
    `Open rows: ${d.open_count}; overdue: ${overdue.total}; out with somebody: ${waiting.total}; the desk is doing ${perms.with_desk} on its own.`,
    `Granted classes (the desk acts without asking): ${grants.length ? grants.join(', ') : 'none'}. money and sign can never be granted.`,
    `Mailbox: ${mail.length ? mail.map((c) => `${c.name} (${c.provider}) is ${c.status}`).join('; ') : 'none connected; nothing leaves'}.`,
    `Domains: ${summary.total}, ${summary.owing} owing ${money(summary.owing_amount, summary.currency)}.`,
    `Blocks on the desk: ${sections.length ? sections.map((s) => `${s.title} (${s.kind}${s.kinds.length ? `: ${s.kinds.join(', ')}` : ''})`).join('; ') : 'none'}.`,
  ].join('\n');
}

function systemPrompt(facts: string): string {
  return [
    'You are the desk: the back office of a small business, answering its owner.',
    'Answer in plain sentences from the facts below and the tools; name work rows by their title and #id.',
    'Never invent rows, dates, people or amounts; when the records do not say, say so.',
    'You cannot change anything, except adding a block to the desk screen with add_section when the owner asks for one.',
    '',
    facts,
  ].join('\n');
}

/** A tool call's arguments, which arrive as JSON text inside the model's message; a few servers send the object itself. */
function parseArgs(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return storable(raw as Record<string, unknown>);
  return typeof raw === 'string' ? storable(storedObject(raw)) : {};
}

export class LlmChat implements ChatBackend {
  constructor(private readonly opts: LlmOptions) {}

  async answer(ctx: DeskContext, question: string, signal: AbortSignal): Promise<ChatReply> {
    try {
      return await this.ask(ctx, question, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      const reply = await this.opts.fallback.answer(ctx, question, signal);
      return { ...reply, fallback_reason: reason };
    }
  }

  private async ask(ctx: DeskContext, question: string, signal: AbortSignal): Promise<ChatReply> {
    const messages: ModelMessage[] = [
      { role: 'system', content: systemPrompt(await deskFacts(ctx)) },
      { role: 'user', content: question },
    ];
    const sections: SectionDraft[] = [];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const message = await this.opts.model.complete(messages, TOOLS, signal);
      const calls = Array.isArray(message.tool_calls)
        ? message.tool_calls.filter((c) => c && typeof c.function?.name === 'string')
        : [];
      if (calls.length > 0) {
        messages.push({
          role: 'assistant',
          content: typeof message.content === 'string' ? message.content : null,
          tool_calls: calls,
        });
        for (const call of calls) {
          signal.throwIfAborted();
          const result = await runTool(ctx, call.function.name, parseArgs(call.function.arguments), sections);
          messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
        }
        continue;
      }
      const text = typeof message.content === 'string' ? message.content.trim() : '';
      if (text === '') throw new LlmFailure('The language model gave an empty answer.');
      return { answer: text, sections, backend: 'llm' };
    }
    throw new LlmFailure(`The language model was still calling tools after ${MAX_ROUNDS} rounds.`);
  }
}
