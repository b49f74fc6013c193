import type { FastifyInstance, FastifyReply } from 'fastify';
import { oneLine } from '../../domain/text.ts';
import { listArrangements } from '../../domain/arrangements/list.ts';
import type { DeskContext } from '../../domain/context.ts';
import { type DeskError, notFound } from '../../domain/errors.ts';
import { addWork } from '../../domain/work/add.ts';
import { assignWork } from '../../domain/work/assign.ts';
import { editWork } from '../../domain/work/edit.ts';
import type { FieldFault, OwnerFields } from '../../domain/work/fields.ts';
import { closeWork, reopenWork } from '../../domain/work/status.ts';
import { nothingChanged } from '../../domain/work/acted.ts';
import { isFinished, OWNER } from '../../domain/vocab.ts';
import type { WorkRow } from '../../store/schema.ts';
import { findWork } from '../../store/repositories/work.ts';
import { drawnValues, sameAsDrawn } from '../drawn.ts';
import { once } from '../once.ts';
import { toRowWith } from '../notice.ts';
import { CloseWorkPage, FORM_FIELDS, WorkFormPage, type FormValues, type WorkFormView } from '../pages/work-form.tsx';
import { csrfToken, fieldOf, formKey, html } from '../reply.ts';
import { saidToOwner } from '../words.ts';
import { signedIn } from './owner.ts';
import { act, workId } from './work.ts';

// The owner's own changes to rows, over the verbs of `desk work add/edit/assign/close/reopen`:
// the screen only turns form text into the fields those verbs take.

const BLANK: FormValues = {
  title: '',
  kind: 'general',
  class: '',
  due: '',
  priority: '50',
  contact_name: '',
  contact_email: '',
  arrangement_id: '',
  detail: '',
};

/** A row as its edit form shows it. */
function valuesOf(row: WorkRow): FormValues {
  // A one-line box shows a title or a name an earlier version took over two lines on one.
  return {
    title: oneLine(row.title),
    kind: row.kind,
    class: row.class ?? '',
    due: row.due_date ?? '',
    priority: String(row.priority),
    contact_name: oneLine(row.contact_name ?? ''),
    contact_email: row.contact_email ?? '',
    arrangement_id: row.arrangement_id === null ? '' : String(row.arrangement_id),
    detail: row.detail ?? '',
  };
}

function typedValues(body: unknown): FormValues {
  return Object.fromEntries(FORM_FIELDS.map((f) => [f, fieldOf(body, f)])) as FormValues;
}

/**
 * The values the edit form was drawn with, as it sent them back; a field it did not send back
 * (a page drawn before it carried them) is taken as the row has it now.
 */
function drawnOf(body: unknown, now: FormValues): FormValues {
  const drawn = drawnValues(body);
  return Object.fromEntries(FORM_FIELDS.map((f) => [f, drawn[f] ?? now[f]])) as FormValues;
}

/** Form text as the verbs' fields: an emptied field clears it, except the ones a row cannot be without. */
function asFields(values: Partial<FormValues>): OwnerFields {
  const f: OwnerFields = {};
  for (const [name, text] of Object.entries(values) as Array<[keyof FormValues, string]>) {
    if (name === 'due' || name === 'class' || name === 'detail') f[name] = text.trim() === '' ? null : text;
    else f[name] = text;
  }
  return f;
}

async function formPage(
  ctx: DeskContext,
  reply: FastifyReply,
  view: Pick<WorkFormView, 'values' | 'row' | 'errors' | 'clearError' | 'drawn'>,
  status = 200,
): Promise<FastifyReply> {
  const arrangements = (await listArrangements(ctx)).items.map((a) => ({ id: a.id, name: a.name }));
  return html(
    reply,
    WorkFormPage({
      desk: ctx.desk.name,
      zone: ctx.desk.timezone,
      csrf: csrfToken(reply),
      idem: formKey(),
      arrangements,
      ...view,
    }),
    status,
  );
}

// The verbs open a field's refusal with its name ("priority must be …"); a form starts a sentence.
const sentence = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);

/** A refusal as the form shows it: every field's mistake, each beside its field. */
function refusal(err: DeskError): Array<{ field?: string; message: string }> {
  if (err.code !== 'bad_request') throw err;
  const fields = err.details?.fields;
  if (Array.isArray(fields))
    return (fields as FieldFault[]).map((f) => ({
      ...(f.field ? { field: f.field } : {}),
      message: sentence(saidToOwner(f.message, f.field)),
    }));
  const field = typeof err.details?.field === 'string' ? err.details.field : undefined;
  return [{ ...(field ? { field } : {}), message: sentence(saidToOwner(err.message, field)) }];
}

const shown = (row: WorkRow): NonNullable<WorkFormView['row']> => ({
  id: row.id,
  title: row.title,
  lastError: row.last_error,
});

async function rowOf(ctx: DeskContext, id: number): Promise<WorkRow> {
  const row = await findWork(ctx.db, ctx.desk.id, id);
  if (!row) throw notFound('work item', id);
  return row;
}

export async function workEditScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/work/new', async (request, reply) => formPage(signedIn(request), reply, { values: BLANK }));

  app.post('/work', async (request, reply) => {
    const ctx = signedIn(request);
    const typed = typedValues(request.body);
    // Left empty, kind and priority take the defaults `desk work add` gives them.
    const given = Object.fromEntries(Object.entries(typed).filter(([, text]) => text.trim() !== ''));
    const r = await once(ctx, request, () => addWork(ctx, { ...asFields(given), title: typed.title }));
    if (!r.ok) return formPage(ctx, reply, { values: typed, errors: refusal(r.error) }, 400);
    return toRowWith(ctx, reply, r.value.id, { notice: `Added "${r.value.title}" to the queue.`, refused: false });
  });

  app.get('/work/:id/edit', async (request, reply) => {
    const ctx = signedIn(request);
    const row = await rowOf(ctx, workId(request));
    return formPage(ctx, reply, { values: valuesOf(row), row: shown(row), drawn: valuesOf(row) });
  });

  app.post('/work/:id/edit', async (request, reply) => {
    const ctx = signedIn(request);
    const row = await rowOf(ctx, workId(request));
    const typed = typedValues(request.body);
    const before = drawnOf(request.body, valuesOf(row));
    // Only what the owner changed from the form as drawn goes to the verb, so the record names
    // just those fields, and a field another writer changed since the page was drawn keeps it.
    const changed = Object.fromEntries(
      FORM_FIELDS.filter((f) => !sameAsDrawn(typed[f], before[f])).map((f) => [f, typed[f]]),
    );
    const clearError = fieldOf(request.body, 'clear_error') === 'yes' && row.last_error !== null;
    // A form saved as it was drawn changes nothing, and is not a mistake.
    const r = await once(ctx, request, async () =>
      Object.keys(changed).length === 0 && !clearError
        ? null
        : editWork(ctx, row.id, { ...asFields(changed), clear_error: clearError }),
    );
    if (!r.ok)
      return formPage(
        ctx,
        reply,
        { values: typed, row: shown(row), clearError, errors: refusal(r.error), drawn: before },
        400,
      );
    return toRowWith(ctx, reply, row.id, {
      notice: r.value && r.value.unchanged === null ? 'Saved your changes.' : 'Nothing was changed.',
      refused: false,
    });
  });

  app.post('/work/:id/assignee', async (request, reply) => {
    const back = fieldOf(request.body, 'to') === 'desk';
    return act(
      request,
      reply,
      'assign',
      (ctx, id) => assignWork(ctx, id, back ? null : fieldOf(request.body, 'assignee')),
      ({ row, unchanged }) =>
        unchanged !== null
          ? nothingChanged('This row', unchanged)
          : row.assignee === OWNER
            ? 'This row is now yours.'
            : row.assignee
              ? `Given to ${row.assignee}; the desk prepares it and stops.`
              : 'Back with the desk.',
    );
  });

  app.post('/work/:id/reopen', async (request, reply) =>
    act(
      request,
      reply,
      'reopen',
      (ctx, id) => reopenWork(ctx, id),
      (a) => (a.unchanged !== null ? nothingChanged('This row', a.unchanged) : 'Reopened: it is back in the queue.'),
    ),
  );

  app.get('/work/:id/close', async (request, reply) => {
    const ctx = signedIn(request);
    const row = await rowOf(ctx, workId(request));
    if (isFinished(row.status)) return reply.code(303).redirect(`/work/${row.id}`);
    return closePage(ctx, reply, row, '');
  });

  app.post('/work/:id/close', async (request, reply) => {
    const ctx = signedIn(request);
    const row = await rowOf(ctx, workId(request));
    const note = fieldOf(request.body, 'note');
    const r = await once(ctx, request, () => closeWork(ctx, row.id, { note }));
    if (!r.ok) {
      // Drawn as the row is now: finished meanwhile, the page offers no Close button again.
      const now = (await findWork(ctx.db, ctx.desk.id, row.id)) ?? row;
      const [first] = refusal(r.error);
      return closePage(ctx, reply, now, note, first!.message, 400, first!.field === 'note');
    }
    const notice =
      r.value.unchanged !== null ? nothingChanged('This row', r.value.unchanged) : 'Closed: it has left the queue.';
    return toRowWith(ctx, reply, row.id, { notice, refused: false });
  });
}

function closePage(
  ctx: DeskContext,
  reply: FastifyReply,
  row: WorkRow,
  note: string,
  error?: string,
  status = 200,
  noteRefused = false,
): FastifyReply {
  return html(
    reply,
    CloseWorkPage({
      desk: ctx.desk.name,
      csrf: csrfToken(reply),
      idem: formKey(),
      row: { id: row.id, title: row.title, status: row.status },
      note,
      ...(error ? { error, noteRefused } : {}),
    }),
    status,
  );
}
