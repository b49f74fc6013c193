import { actorOf, type DeskContext } from '../context.ts';
import { closeDirections, cutAt, isBlank, longerThan } from '../text.ts';
import { badRequest, notFound } from '../errors.ts';
import { logEvent } from '../record.ts';
import { atomically } from '../../store/tx.ts';
import { isForeignKeyViolation } from '../../store/dialect.ts';
import { insertActivity } from '../../store/repositories/activity.ts';
import { findArrangement } from '../../store/repositories/rows.ts';

// POST /arrangements/{id}/notes: a note is an activity entry on the arrangement (D6), which
// the desk reads when it next works the arrangement (drafts quote the newest notes).

export const NOTE_MAX_CHARS = 4000;
export const EMPTY_NOTE = 'Say something in body.';
/** Said of a body that is not a string, with what it is after it. */
export const NOTE_NOT_TEXT = 'Say something in body, as a string of text';

export interface NoteInput {
  body?: unknown;
  actor?: string;
  channel?: unknown;
}

export interface NoteAnswer {
  id: number;
  arrangement_id: number;
  channel: string;
  body: string;
  actor: string;
  created_at: string;
}

/**
 * The owner's note, typed on the screen or the command line, is refused past 4,000 characters
 * rather than cut unsaid (P-text-1); a program's is cut there (P-writes-13).
 */
export function ownersNoteFits(ctx: DeskContext, text: unknown, field: string): void {
  // Counted as it would be kept: trimmed, with the directions it opens closed (P-text-1).
  if (
    ctx.actor.type === 'owner' &&
    typeof text === 'string' &&
    longerThan(closeDirections(text.trim()), NOTE_MAX_CHARS)
  )
    throw badRequest(`A note is at most ${NOTE_MAX_CHARS.toLocaleString('en')} characters; this one is longer.`, {
      field,
    });
}

/** Trimmed and cut at 4,000 characters (whole characters, never half of a pair). */
export function noteBody(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest(EMPTY_NOTE);
  if (isBlank(raw)) throw badRequest(EMPTY_NOTE);
  return cutAt(raw, NOTE_MAX_CHARS);
}

export async function addArrangementNote(
  ctx: DeskContext,
  arrangementId: number,
  input: NoteInput,
): Promise<NoteAnswer> {
  ownersNoteFits(ctx, input.body, 'body');
  const body = noteBody(input.body);
  return atomically(ctx, (tx) => noteIn(tx, arrangementId, body, input));
}

async function noteIn(ctx: DeskContext, arrangementId: number, body: string, input: NoteInput): Promise<NoteAnswer> {
  const arrangement = await findArrangement(ctx.db, ctx.desk.id, arrangementId);
  if (!arrangement) throw notFound('arrangement', arrangementId);

  const channel = input.channel === 'call' ? 'call' : 'note';
  const actor = actorOf(ctx, input.actor);
  const now = ctx.now();
  const row = await insertActivity(ctx.db, {
    deskId: ctx.desk.id,
    kind: 'note',
    arrangementId: arrangement.id,
    channel,
    direction: 'inbound',
    body,
    status: 'recorded',
    actor,
    at: now,
  }).catch((err: unknown) => {
    // Removed by the owner between the look and the write: as if it had gone before.
    throw isForeignKeyViolation(err) ? notFound('arrangement', arrangementId) : err;
  });
  await logEvent(
    ctx,
    'note_added',
    `${actor} added a ${channel === 'call' ? 'call note' : 'note'} to ${arrangement.name}.`,
    {
      arrangement_id: arrangement.id,
      activity_id: row.id,
      channel,
      actor,
    },
  );
  return { id: row.id, arrangement_id: arrangement.id, channel, body, actor, created_at: row.created_at };
}
