import type { DeskContext } from '../context.ts';
import type { SectionDraft } from '../desks/sections.ts';

// What answers POST /chat. A backend only reads the desk; the blocks it wants added come back
// as drafts, and the chat verb saves them only when the answer arrived in time.

export interface ChatReply {
  answer: string;
  /** Blocks to add to the desk. */
  sections: SectionDraft[];
  /** Which backend answered: `builtin` or `llm`. */
  backend: string;
  /** Why the language model did not answer, when the built-in answerer stood in for it. */
  fallback_reason?: string;
}

export interface ChatBackend {
  /** `signal` aborts when the chat's time is up; the reply is then thrown away. */
  answer(ctx: DeskContext, question: string, signal: AbortSignal): Promise<ChatReply>;
}
