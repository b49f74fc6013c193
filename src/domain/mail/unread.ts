import { countUnreadReplies } from '../../store/repositories/mail.ts';
import type { DeskContext } from '../context.ts';

/** Unfinished rows holding a reply nobody has seen to yet (the rows whose action is "Read the reply", P-mail-3). */
export async function repliesToRead(ctx: DeskContext): Promise<number> {
  return countUnreadReplies(ctx.db, ctx.desk.id);
}
