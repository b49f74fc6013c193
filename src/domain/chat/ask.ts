import { isUniqueViolation } from '../../store/dialect.ts';
import type { DeskContext } from '../context.ts';
import { addSections, SECTIONS_MAX, type DeskSection } from '../desks/sections.ts';
import { badRequest } from '../errors.ts';
import { closeDirections, isBlank, listWords, plural } from '../text.ts';
import { logEvent } from '../record.ts';
import { atomically } from '../../store/tx.ts';

// POST /chat: ask the desk a question. Whatever backend answers (the built-in one, or a
// language model when one is configured), an answer later than the chat timeout is thrown
// away: `timed_out: true`, `answer: null`, and nothing is saved. Blocks the backend asked for
// are saved only with an answer that arrived in time, and `desk_added` reports them saved.

export const EMPTY_QUESTION = 'Say something in text.';
/** Said of a question that is not a string, with what it is after it. */
export const QUESTION_NOT_TEXT = 'Say something in text, as a string of text';

/** The longest question, in characters: each one asked is kept whole in the Record. */
export const QUESTION_MAX = 2000;

export interface ChatInput {
  text?: unknown;
}

export interface ChatResult {
  question: string;
  answer: string | null;
  timed_out: boolean;
  desk_added: DeskSection[];
}

export function questionText(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest(EMPTY_QUESTION);
  const q = raw.trim();
  if (isBlank(q)) throw badRequest(EMPTY_QUESTION);
  const length = Array.from(q).length;
  if (length > QUESTION_MAX)
    throw badRequest(
      `A question is at most ${QUESTION_MAX.toLocaleString('en')} characters; this one has ${length.toLocaleString('en')}.`,
      { field: 'text' },
    );
  // Quoted in the desk's own sentence ("Answered "…"."), a direction it leaves open stops there.
  return closeDirections(q);
}

/** The question as the log shows it: one line, not too long. */
function quoted(q: string): string {
  const line = q.replace(/\s+/g, ' ');
  const chars = Array.from(line);
  return chars.length > 120 ? `${closeDirections(chars.slice(0, 119).join(''))}…` : line;
}

const TIMED_OUT = Symbol('timed out');

export async function askDesk(ctx: DeskContext, input: ChatInput): Promise<ChatResult> {
  const question = questionText(input.text);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ctx.config.chatTimeoutMs);
  });
  const answering = ctx.engine.chat.answer(ctx, question, controller.signal);
  // Once the time is up nobody awaits the backend; its late failure must not go unhandled.
  answering.catch(() => undefined);
  let reply: Awaited<typeof answering> | typeof TIMED_OUT;
  try {
    reply = await Promise.race([answering, late]);
  } finally {
    clearTimeout(timer);
  }

  if (reply === TIMED_OUT) {
    controller.abort();
    await logEvent(ctx, 'chat', `Ran out of time answering "${quoted(question)}"; nothing was changed.`, {
      question,
      timed_out: true,
    });
    return { question, answer: null, timed_out: true, desk_added: [] };
  }

  const answered = reply;
  for (let attempt = 1; ; attempt++) {
    try {
      return await atomically(ctx, async (tx) => {
        const { added, already, over_cap: left } = await addSections(tx, answered.sections);
        await logEvent(tx, 'chat', `Answered "${quoted(question)}".`, {
          question,
          timed_out: false,
          backend: answered.backend,
          sections: added.map((s) => s.id),
          ...(answered.fallback_reason ? { fallback_reason: answered.fallback_reason } : {}),
        });
        const notes = [
          already.length > 0
            ? `The desk already has ${already.length === 1 ? 'a block' : 'blocks'} ${listWords(already.map((t) => `"${t}"`))}, so ${already.length === 1 ? 'it was' : 'they were'} not added again.`
            : '',
          left > 0
            ? `The desk page holds at most ${SECTIONS_MAX} blocks, so ${plural(left, 'block')} asked for ${left === 1 ? 'was' : 'were'} not added.`
            : '',
        ].filter((n) => n !== '');
        const said = answered.answerFor ? answered.answerFor(added) : answered.answer;
        const answer = [said, ...notes].filter((n) => n !== '').join('\n\n');
        return { question, answer, timed_out: false, desk_added: added };
      });
    } catch (err) {
      // Another chat took the same block id a moment ago: pick the next free one.
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}
