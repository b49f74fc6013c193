import { remembered } from '../store/remembered.ts';
import type { DeskContext } from './context.ts';

/**
 * A read whose answer depends on nothing but the stored rows, the desk, what was `asked` and the
 * desk's today (P-speed-5). While the store is unchanged, the same question on the same day is
 * answered from memory; any commit, by this process or another, makes it read again. Only a
 * read whose answer is a function of those alone may use it: one that looks at the clock's
 * time of day, the engine or the caller may not.
 */
export function sameAnswer<T>(ctx: DeskContext, what: string, asked: unknown, read: () => Promise<T>): Promise<T> {
  const name = `${what} ${ctx.desk.id} ${ctx.today()} ${JSON.stringify(asked ?? null)}`;
  return remembered(ctx.db, name, read, { large: true, ...(ctx.seen === undefined ? {} : { at: ctx.seen }) });
}
