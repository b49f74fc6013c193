import { actorName, type DeskContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { logEvent } from '../record.ts';
import { connectionById, noteSendFault } from '../../store/repositories/connections.ts';
import { newMessageId } from '../work/message-id.ts';
import { addressOf } from './smtp-settings.ts';
import { notAnAddress } from '../mail/address.ts';
import { SecretKeyError } from '../../store/cipher.ts';

// "Send a test message": one message through the stored mailbox, by the same mailer the desk
// sends its work with, so the owner learns now, in the server's own words, whether it works.

export interface MailboxTest {
  ok: boolean;
  to: string;
  /** What happened, in words: the server's refusal when it refused. */
  said: string;
}

export async function testMailbox(ctx: DeskContext, connectionId: number, rawTo: string): Promise<MailboxTest> {
  let box: Awaited<ReturnType<typeof connectionById>>;
  try {
    box = await connectionById(ctx.db, ctx.desk.id, connectionId);
  } catch (err) {
    // A password sealed under another key is the test's outcome, as it is a send's (P-secrets-3).
    if (!(err instanceof SecretKeyError)) throw err;
    return {
      ok: false,
      to: rawTo.trim(),
      said: `The mailbox's password could not be opened, so nothing was sent. ${err.message}`,
    };
  }
  if (box?.category !== 'mail') throw notFound('mailbox', connectionId);
  const from = typeof box.config.from === 'string' ? box.config.from : null;
  const user = typeof box.config.user === 'string' ? box.config.user : null;
  const typed = rawTo.trim();
  // "Bob <bob@x.test>" typed is sent to the address in it: the mailer takes an address alone.
  const to = typed ? addressOf(typed) : addressOf(from ?? '') || addressOf(user ?? '');
  if (!typed && !to)
    throw badRequest(
      "The mailbox has no address of its own to send the test to (its From is not set and its user is not an address): give one to send it to, or set the mailbox's From.",
      { field: 'to' },
    );
  if (!to) throw badRequest(`${notAnAddress(typed)}.`, { field: 'to' });

  let result: MailboxTest;
  try {
    const r = await ctx.engine.mailer.send(
      { provider: box.provider, config: box.config },
      {
        to,
        subject: `A test message from ${ctx.desk.name}`,
        text: `This is a test message from the desk for ${ctx.desk.name}. The mailbox "${box.name}" works: the desk can send its messages through it.`,
        messageId: newMessageId(from ?? user, ctx.desk.slug),
      },
    );
    result = r.accepted
      ? { ok: true, to, said: `The mail server took the test message for ${to}.` }
      : { ok: false, to, said: r.reason };
  } catch (err) {
    result = {
      ok: false,
      to,
      said: `The mail server could not be reached: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  // A test that gets through ends a fault the desk's own sends met (P-pass-8).
  if (result.ok) await noteSendFault(ctx.db, ctx.desk.id, box.id, null);
  const who = actorName(ctx.actor);
  await logEvent(
    ctx,
    'mailbox_tested',
    `${who} sent a test message through "${box.name}" to ${to}: ${result.ok ? 'it went' : 'it did not go'}.`,
    { connection_id: box.id, to, ok: result.ok, ...(result.ok ? {} : { reason: result.said }), by: who },
  );
  return result;
}
