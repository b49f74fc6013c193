import type { OutgoingHttpHeaders } from 'node:http';
import { ownNext } from '../../domain/work/own-next.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addArrangementNote } from '../../domain/arrangements/note.ts';
import { listArrangements } from '../../domain/arrangements/list.ts';
import type { DeskContext } from '../../domain/context.ts';
import { DeskError, notFound } from '../../domain/errors.ts';
import { parseId } from '../../domain/input.ts';
import { nothingChanged } from '../../domain/work/acted.ts';
import { assignWork } from '../../domain/work/assign.ts';
import { completeWork } from '../../domain/work/complete.ts';
import { addressOf, draftWork } from '../../domain/work/draft.ts';
import { getWork } from '../../domain/work/get.ts';
import { approveDraft } from '../../domain/work/revise.ts';
import { CHANGED_SINCE } from '../../domain/work/seen.ts';
import { changedFromDrawn, drawnValues } from '../drawn.ts';
import { snoozeWork } from '../../domain/work/snooze.ts';
import { recentNotes, unsentReasonsOn } from '../../store/repositories/activity.ts';
import { findWork } from '../../store/repositories/work.ts';
import { findLiveRun, startLiveRun, type RunEvent } from '../live-runs.ts';
import { once } from '../once.ts';
import { carriedFor, toRowWith } from '../notice.ts';
import { RunPage } from '../pages/misc.tsx';
import { NOTES_SHOWN, RowPage, type RowView } from '../pages/work.tsx';
import { csrfToken, fieldOf, formKey, html } from '../reply.ts';
import { saidToOwner } from '../words.ts';
import { OWNER } from '../../domain/vocab.ts';

// A row's page and the forms on it. Each form calls the verb the API route of the same name
// calls; what the verb answers is shown at the top of the row, a refusal beside its field.

function owner(request: FastifyRequest): DeskContext {
  if (!request.owner) throw new DeskError('unauthorized', 'Sign in first.');
  return request.owner;
}

export function workId(request: FastifyRequest): number {
  return parseId((request.params as { id: string }).id, 'work item');
}

export async function rowPage(
  ctx: DeskContext,
  reply: FastifyReply,
  id: number,
  extra: Pick<RowView, 'error' | 'typed' | 'kept' | 'notice' | 'refused'> = {},
  status = 200,
): Promise<FastifyReply> {
  const detail = await getWork(ctx, id);
  const row = await findWork(ctx.db, ctx.desk.id, id);
  let arrangement: RowView['arrangement'] = null;
  if (row?.arrangement_id != null) {
    const a = (await listArrangements(ctx)).items.find((x) => x.id === row.arrangement_id);
    if (a)
      arrangement = {
        id: a.id,
        name: a.name,
        notes: a.notes_count === 0 ? [] : await recentNotes(ctx.db, ctx.desk.id, a.id, NOTES_SHOWN),
        notesCount: a.notes_count,
      };
  }
  const keys = {
    action: formKey(),
    snooze: formKey(),
    complete: formKey(),
    note: formKey(),
    assign: formKey(),
    reopen: formKey(),
  };
  const onOwn = await ownNext(ctx, id);
  return html(
    reply,
    RowPage({
      desk: ctx.desk.name,
      zone: ctx.desk.timezone,
      csrf: csrfToken(reply),
      detail,
      arrangement,
      assignee: row?.assignee ?? null,
      unsent: await unsentReasonsOn(ctx.db, ctx.desk.id, id),
      canWrite: row !== undefined && addressOf(row) !== null,
      keys,
      onOwn,
      ...extra,
    }),
    status,
  );
}

export type Form = NonNullable<RowView['error']>['form'];

/** A complete that left the row as it was: its send failed, or another request is sending. */
const notCompleted = (a: { failed: boolean; status: string }) =>
  a.failed || (a.status !== 'done' && a.status !== 'waiting' && a.status !== 'cancelled');

/** Runs a form's verb once per key, then draws the row with the verb's words or its refusal. */
export async function act<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  form: Form,
  fn: (ctx: DeskContext, id: number) => Promise<T>,
  words: (v: T) => string,
  id?: number,
  /** Whether the verb, though it answered, did not do what the press asked (a send that failed). */
  refused: (v: T) => boolean = () => false,
  /** An answer drawn in place with what was typed, when the owner's text would be lost on the row's own page. */
  inPlace: (
    v: T,
    typed: Record<string, string>,
  ) => Pick<RowView, 'typed' | 'kept' | 'notice' | 'refused'> | null = () => null,
): Promise<FastifyReply> {
  const ctx = owner(request);
  const row = id ?? workId(request);
  const r = await once(ctx, request, () => fn(ctx, row));
  const typed = Object.fromEntries(
    Object.entries((request.body as Record<string, string>) ?? {}).filter(
      ([k]) => !['_csrf', 'idempotency_key'].includes(k),
    ),
  );
  if (!r.ok) {
    if (r.error.code !== 'bad_request') throw r.error;
    const field = typeof r.error.details?.field === 'string' ? r.error.details.field : undefined;
    const fields = refusedFields(r.error.details?.fields);
    return rowPage(
      ctx,
      reply,
      row,
      {
        error: {
          form,
          ...(field ? { field } : {}),
          ...(fields ? { fields } : {}),
          message: saidToOwner(r.error.message, field),
        },
        typed,
      },
      400,
    );
  }
  const drawn = inPlace(r.value, typed);
  // 409: nothing in the form was wrong; the message it approves changed under it.
  if (drawn) return rowPage(ctx, reply, row, drawn, 409);
  return toRowWith(ctx, reply, row, { notice: words(r.value), refused: refused(r.value) });
}

/** The approve form's fields the owner can change, by the names its labels give them. */
const MESSAGE_FIELDS = { subject: 'subject', body: 'message' } as const;

/**
 * "Approve and send" refused because the message changed since its page was drawn
 * (P-screen-work-6): what the owner changed in it is theirs, and is drawn again rather than lost
 * with a redirect to the row's page (which a cookie cannot carry a whole message to). The rest of
 * the form, its `drawn_` values among them, is the message as it is now, so pressing again sends
 * the owner's text to where the message now goes, and a second change is caught as the first was.
 */
function keptEdits(
  a: Awaited<ReturnType<typeof approveDraft>>,
  typed: Record<string, string>,
): Pick<RowView, 'typed' | 'kept' | 'notice' | 'refused'> | null {
  if (!('approved' in a) || a.reason !== CHANGED_SINCE) return null;
  const drawn = drawnValues(typed);
  const changed = (Object.keys(MESSAGE_FIELDS) as Array<keyof typeof MESSAGE_FIELDS>).filter(
    (f) => typed[f] !== undefined && changedFromDrawn(typed, drawn, f),
  );
  // Nothing of the owner's to keep: the row's own page shows the message as it is now.
  if (changed.length === 0) return null;
  const names = changed.map((f) => MESSAGE_FIELDS[f]).join(' and ');
  return {
    typed: Object.fromEntries(changed.map((f) => [f, typed[f]!])),
    kept: 'approve',
    notice: `${a.reason} Your ${changed.length === 1 ? `change to the ${names} is` : `changes to the ${names} are`} kept in the form below, not saved yet.`,
    refused: true,
  };
}

/** Each refused field's words for the owner, when the verb named more than one. */
function refusedFields(raw: unknown): Record<string, string> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const said = Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string');
  return said.length > 1 ? Object.fromEntries(said.map(([f, m]) => [f, saidToOwner(m, f)])) : undefined;
}

/** A form's days as typed: digits become a number, anything else goes to the verb as typed and is refused there. */
function days(raw: string): unknown {
  return /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
}

function sse(e: RunEvent): string {
  return `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

export async function workScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/work/:id', async (request, reply) => {
    const id = workId(request);
    return rowPage(owner(request), reply, id, carriedFor(request, reply, `/work/${id}`) ?? {});
  });

  app.post('/work/:id/approve', async (request, reply) =>
    act(
      request,
      reply,
      'approve',
      (ctx, id) =>
        approveDraft(ctx, id, {
          subject: fieldOf(request.body, 'subject'),
          body: fieldOf(request.body, 'body'),
          drawn: drawnValues(request.body),
        }),
      (a) => ('approved' in a ? a.reason : a.failed ? `Not sent: ${a.delivery_note}` : a.delivery_note),
      undefined,
      (a) => 'approved' in a || a.failed,
      keptEdits,
    ),
  );

  app.post('/work/:id/draft', async (request, reply) =>
    act(
      request,
      reply,
      'action',
      (ctx, id) => draftWork(ctx, id),
      (d) => (d.drafted ? `The desk prepared a message to ${d.to}; read it before you approve it.` : d.reason),
      undefined,
      (d) => !d.drafted,
    ),
  );

  app.post('/work/:id/assign', async (request, reply) =>
    act(
      request,
      reply,
      'action',
      (ctx, id) => assignWork(ctx, id, OWNER),
      (a) => (a.unchanged !== null ? nothingChanged('This row', a.unchanged) : 'This row is now yours.'),
    ),
  );

  app.post('/work/:id/snooze', async (request, reply) =>
    act(
      request,
      reply,
      'snooze',
      (ctx, id) => snoozeWork(ctx, id, days(fieldOf(request.body, 'days'))),
      (s) => `Snoozed: now due ${s.due_date}, priority ${s.priority}.`,
    ),
  );

  app.post('/work/:id/complete', async (request, reply) =>
    act(
      request,
      reply,
      'complete',
      (ctx, id) => completeWork(ctx, id, { note: fieldOf(request.body, 'note'), noDraftSeen: true }),
      (a) =>
        notCompleted(a)
          ? `Not done: ${a.delivery_note}`
          : a.status === 'waiting'
            ? `Done for now; waiting on ${a.waiting_on}. ${a.delivery_note}`
            : `Marked ${a.status}. ${a.delivery_note}`,
      undefined,
      notCompleted,
    ),
  );

  app.post('/arrangements/:id/notes', async (request, reply) => {
    const arrangementId = parseId((request.params as { id: string }).id, 'arrangement');
    const back = parseId(fieldOf(request.body, 'work'), 'work item');
    // The row the answer is drawn on is looked for first: a note written and then answered with
    // "not found" would be kept while the page said the form did nothing.
    const ctx = owner(request);
    if (!(await findWork(ctx.db, ctx.desk.id, back))) throw notFound('work item', back);
    return act(
      request,
      reply,
      'note',
      (ctx) => addArrangementNote(ctx, arrangementId, { body: fieldOf(request.body, 'body') }),
      () => 'Note added; the desk reads it when it next works this arrangement.',
      back,
    );
  });

  app.post('/work/:id/run', async (request, reply) => {
    const ctx = owner(request);
    const id = workId(request);
    await getWork(ctx, id); // another desk's row, or none: 404 before anything starts
    const r = await once(ctx, request, async () => ({
      run: startLiveRun(ctx, id, formKey()).id,
    }));
    if (!r.ok) throw r.error;
    return reply.code(303).redirect(`/work/${id}/runs/${encodeURIComponent(r.value.run)}`);
  });

  app.get('/work/:id/runs/:run', async (request, reply) => {
    const ctx = owner(request);
    const id = workId(request);
    const { work } = await getWork(ctx, id);
    const run = findLiveRun(ctx.desk.id, id, (request.params as { run: string }).run);
    return html(
      reply,
      RunPage({
        desk: ctx.desk.name,
        csrf: csrfToken(reply),
        workId: id,
        title: work.title,
        runId: run?.id ?? null,
        events: run ? [...run.events] : [],
      }),
      // A run this process never started, or forgot an hour after it ended: the page says so.
      run ? 200 : 404,
    );
  });

  app.get('/work/:id/runs/:run/events', async (request, reply) => {
    const ctx = owner(request);
    const id = workId(request);
    const run = findLiveRun(ctx.desk.id, id, (request.params as { run: string }).run);
    if (!run) throw new DeskError('not_found', 'This run is no longer followed here.');
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      // What every answer carries (its request id) is on the reply, which a hijacked stream leaves behind.
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    for (const e of run.events) res.write(sse(e));
    if (run.finished) return res.end();
    const listener = (e: RunEvent) => {
      res.write(sse(e));
      if (e.type === 'end') {
        run.listeners.delete(listener);
        res.end();
      }
    };
    run.listeners.add(listener);
    request.raw.on('close', () => run.listeners.delete(listener));
  });
}
