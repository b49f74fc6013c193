import { actorName, type DeskContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { mailboxSettings } from '../mail/settings.ts';
import { logEvent } from '../record.ts';
import { connectionById } from '../../store/repositories/connections.ts';

// "Check the inbox": one sign-in with the stored imap part, the mailbox opened read-only, so
// the owner learns now, in the server's own words, whether the desk can read its replies.
// Nothing in the mailbox changes and no message is read.

export interface InboxCheck {
  ok: boolean;
  /** What happened, in words: the server's refusal when it refused. */
  said: string;
}

export async function checkInbox(ctx: DeskContext, connectionId: number): Promise<InboxCheck> {
  const box = await connectionById(ctx.db, ctx.desk.id, connectionId);
  if (box?.category !== 'mail') throw notFound('mailbox', connectionId);
  const settings = mailboxSettings(box.config);
  if (!settings) throw badRequest('Add the inbox server and save the mailbox first.', { field: 'imap_host' });

  let result: InboxCheck;
  try {
    const { messages } = await ctx.engine.reader.check(settings, ctx.config.mailTimeoutMs);
    const count = messages === 1 ? '1 message' : `${messages} messages`;
    result = { ok: true, said: `The inbox answered: ${count} in ${settings.mailbox}.` };
  } catch (err) {
    result = { ok: false, said: err instanceof Error ? err.message : String(err) };
  }
  const who = actorName(ctx.actor);
  await logEvent(
    ctx,
    'inbox_checked',
    `${who} checked the inbox of "${box.name}": ${result.ok ? 'it answered' : 'it did not answer'}.`,
    { connection_id: box.id, ok: result.ok, ...(result.ok ? {} : { reason: result.said }), by: who },
  );
  return result;
}
