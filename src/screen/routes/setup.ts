import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listArrangements } from '../../domain/arrangements/list.ts';
import { saveArrangement } from '../../domain/arrangements/save.ts';
import type { DeskContext } from '../../domain/context.ts';
import { removableName, removeEntry, tiedToArrangement, type Removable } from '../../domain/desks/remove.ts';
import { linesOf, saveUnit } from '../../domain/desks/save-unit.ts';
import { listUnits } from '../../domain/desks/units.ts';
import { listWatches } from '../../domain/desks/watches.ts';
import { notFound } from '../../domain/errors.ts';
import { positiveId } from '../../domain/input.ts';
import { saveWatch } from '../../domain/watches/save.ts';
import { upcomingWatches } from '../../domain/watches/upcoming.ts';
import { changedOverNow, drawnValues } from '../drawn.ts';
import { once } from '../once.ts';
import type { FormState } from '../pages/form-fields.tsx';
import {
  ArrangementFormPage,
  RemovePage,
  SetupPage,
  type ListPage,
  UnitFormPage,
  WatchFormPage,
  type EntryFormView,
} from '../pages/setup.tsx';
import { csrfToken, formKey, html } from '../reply.ts';
import { saidToOwner } from '../words.ts';
import { decimalOf } from '../../domain/money.ts';
import { plural } from '../../domain/text.ts';
import { signedIn } from './owner.ts';
import { noticeFor, toPageWith } from '../notice.ts';

// Arrangements, units and watches: a list page, and a page per entry to add, edit or remove
// it, each over one domain verb. A refused form is drawn again with what was typed and each
// error beside its field; nothing is written.

type Kind = 'arrangement' | 'unit' | 'watch';
const PATH: Record<Kind, string> = { arrangement: 'arrangements', unit: 'units', watch: 'watches' };

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Entries of each long list drawn on one page of it; a desk of thousands is read a page at a time. */
const PER_PAGE = 100;

/** A page of `list` from the place asked for (`?arrangements=200`), at a page's start; past the end, the last page. */
function pageOf<T>(list: readonly T[], asked: unknown): ListPage<T> {
  const n = typeof asked === 'string' && /^\d{1,9}$/.test(asked) ? Number(asked) : 0;
  const last = Math.max(0, Math.ceil(list.length / PER_PAGE) - 1) * PER_PAGE;
  const from = Math.min(Math.floor(n / PER_PAGE) * PER_PAGE, last);
  return { items: list.slice(from, from + PER_PAGE), from, total: list.length };
}

async function setupPage(
  ctx: DeskContext,
  reply: FastifyReply,
  notice?: string,
  query: Record<string, unknown> = {},
): Promise<FastifyReply> {
  const [arrangements, units, watches] = await Promise.all([
    listArrangements(ctx),
    listUnits(ctx),
    upcomingWatches(ctx),
  ]);
  const byName = [...arrangements.items].sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id);
  return html(
    reply,
    SetupPage({
      desk: ctx.desk.name,
      csrf: csrfToken(reply),
      today: ctx.today(),
      arrangements: pageOf(byName, query.arrangements),
      units: pageOf(units.items, query.units),
      arrangementName: new Map(byName.map((a) => [a.id, a.name])),
      pageAt: (at, section) => {
        const q = new URLSearchParams();
        if (at.arrangements > 0) q.set('arrangements', String(at.arrangements));
        if (at.units > 0) q.set('units', String(at.units));
        return `/arrangements${q.size > 0 ? `?${q}` : ''}#${section}`;
      },
      perPage: PER_PAGE,
      watches,
      ...(notice ? { notice } : {}),
    }),
  );
}

/** What an entry is called: a watch by its label, the rest by their name. */
function nameOf(kind: Kind, values: Record<string, string>): string {
  return (kind === 'watch' ? values.label : values.name) ?? '';
}

/** The stored entry as the form's values, or not found. */
async function storedValues(ctx: DeskContext, kind: Kind, id: number): Promise<Record<string, string>> {
  if (kind === 'arrangement') {
    const a = (await listArrangements(ctx)).items.find((x) => x.id === id);
    if (!a) throw notFound('arrangement', id);
    return {
      name: a.name,
      counterparty: text(a.counterparty),
      kind: a.kind,
      status: a.status,
      starts_on: text(a.starts_on),
      ends_on: text(a.ends_on),
      renews_on: text(a.renews_on),
      amount: a.amount_cents === null ? '' : decimalOf(a.amount_cents, a.currency ?? ctx.desk.currency),
      currency: text(a.currency),
      contact_name: text(a.contact_name),
      contact_email: text(a.contact_email),
    };
  }
  if (kind === 'unit') {
    const u = (await listUnits(ctx)).items.find((x) => x.id === id);
    if (!u) throw notFound('unit', id);
    return { name: u.name, type: u.type, arrangement: text(u.arrangement_id), fields: linesOf(u.fields) };
  }
  const w = (await listWatches(ctx)).items.find((x) => x.id === id);
  if (!w) throw notFound('watch', id);
  return {
    label: w.label,
    subject_type: w.subject_type,
    field: w.field,
    lead_days: String(w.lead_days),
    every: text(w.every),
    kind: w.kind,
    action: w.action,
    priority: String(w.priority),
  };
}

const BLANK: Record<Kind, Record<string, string>> = {
  arrangement: { status: 'active' },
  unit: {},
  watch: { lead_days: '30', priority: '50', action: 'reach_out' },
};

const PAGE = { arrangement: ArrangementFormPage, unit: UnitFormPage, watch: WatchFormPage };

async function formPage(
  ctx: DeskContext,
  reply: FastifyReply,
  kind: Kind,
  id: number | null,
  form: FormState,
  status = 200,
  /** The entry's name as saved: what an edit is headed with, whatever was typed over it. */
  saved: string | null = null,
): Promise<FastifyReply> {
  const [arrangements, units, watches] = await Promise.all([listArrangements(ctx), listUnits(ctx), listWatches(ctx)]);
  const view: EntryFormView = {
    desk: ctx.desk.name,
    csrf: csrfToken(reply),
    idem: formKey(),
    id,
    saved,
    form,
    zone: ctx.desk.timezone,
    currency: ctx.desk.currency,
    arrangements: arrangements.items
      .map((a) => ({ id: a.id, name: a.name }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en')),
    unitTypes: [...new Set([...units.items.map((u) => u.type), ...watches.items.map((w) => w.subject_type)])].sort(),
  };
  return html(reply, PAGE[kind](view), status);
}

function entryId(request: FastifyRequest, kind: string): number {
  const raw = (request.params as { id: string }).id;
  const id = positiveId(raw);
  if (id === null) throw notFound(kind, raw);
  return id;
}

function typed(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>))
    if (typeof v === 'string' && k !== '_csrf' && k !== 'idempotency_key' && !k.startsWith('drawn_')) out[k] = v;
  return out;
}

/** What removing an arrangement does, with what it holds counted. */
function arrangementConsequence(t: { notes: number; rows: number; units: number }): string {
  const notes =
    t.notes === 0 ? 'It has no notes.' : `Its ${plural(t.notes, 'note')} ${t.notes === 1 ? 'goes' : 'go'} with it.`;
  const tied = [t.rows ? plural(t.rows, 'row') : null, t.units ? plural(t.units, 'unit') : null].filter(Boolean);
  const one = t.rows + t.units === 1;
  const stay = tied.length
    ? `${tied.join(' and ')} that ${one ? 'belongs' : 'belong'} to it ${one ? 'stays' : 'stay'}, belonging to no arrangement.`
    : 'No row or unit belongs to it.';
  return `${notes} ${stay.charAt(0).toUpperCase()}${stay.slice(1)}`;
}

const CONSEQUENCE: Record<Removable, string> = {
  connection:
    'The desk stops using it at once: with no mailbox nothing is sent, and a playbook that signed in with it has no sign-in. Its settings and password are deleted.',
  arrangement: 'Its notes go with it. Work rows and units that belonged to it stay, belonging to no arrangement.',
  unit: 'Work rows about it stay, about no unit. Watches no longer see its dates.',
  watch: 'It turns no more dates into work. The rows it already made stay.',
};

const BACK: Record<Removable, string> = {
  connection: '/connections',
  arrangement: '/arrangements',
  unit: '/arrangements',
  watch: '/arrangements',
};

const SAVE = { arrangement: saveArrangement, unit: saveUnit, watch: saveWatch };
/** Fields of a form that are one value, saved together when any of them is changed (changedOverNow). */
const ONE_VALUE = { arrangement: [['amount', 'currency']], unit: [], watch: [] } as const;

export async function setupScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/arrangements', async (request, reply) =>
    setupPage(
      signedIn(request),
      reply,
      noticeFor(request, reply, '/arrangements'),
      request.query as Record<string, unknown>,
    ),
  );
  // Units and watches are listed on the arrangements' page: their own addresses lead there.
  app.get('/units', async (request, reply) => {
    signedIn(request);
    return reply.code(303).redirect('/arrangements#units-title');
  });
  app.get('/watches', async (request, reply) => {
    signedIn(request);
    return reply.code(303).redirect('/arrangements#watches-title');
  });

  for (const kind of ['arrangement', 'unit', 'watch'] as const) {
    const base = `/${PATH[kind]}`;
    app.get(`${base}/new`, async (request, reply) =>
      formPage(signedIn(request), reply, kind, null, { values: { ...BLANK[kind] }, errors: {} }),
    );
    app.get(`${base}/:id`, async (request, reply) => {
      const ctx = signedIn(request);
      const id = entryId(request, kind);
      const values = await storedValues(ctx, kind, id);
      return formPage(ctx, reply, kind, id, { values, errors: {}, drawn: values }, 200, nameOf(kind, values));
    });

    const submit = async (
      request: FastifyRequest,
      reply: FastifyReply,
      id: number | null,
      stored: Record<string, string> | null,
    ) => {
      const ctx = signedIn(request);
      const values = typed(request.body);
      const drawn = drawnValues(request.body);
      const saved = stored === null ? null : nameOf(kind, stored);
      // What the owner left as drawn is saved as it is now: another tab's change to it stands.
      const r = await once(ctx, request, () =>
        SAVE[kind](ctx, id, stored === null ? values : changedOverNow(values, drawn, stored, ONE_VALUE[kind])),
      );
      if (!r.ok) {
        if (r.error.code !== 'bad_request') throw r.error;
        const fields = r.error.details?.fields;
        const errors = Object.fromEntries(
          Object.entries(
            fields && typeof fields === 'object' ? (fields as Record<string, string>) : { '': r.error.message },
          ).map(([field, message]) => [field, saidToOwner(message, field)]),
        );
        return formPage(ctx, reply, kind, id, { values, errors, ...(stored === null ? {} : { drawn }) }, 400, saved);
      }
      return toPageWith(ctx, reply, '/arrangements', {
        notice: `The ${kind} "${r.value.name}" is ${r.value.created ? 'added' : 'saved'}.`,
        refused: false,
      });
    };
    app.post(`${base}/new`, async (request, reply) => submit(request, reply, null, null));
    app.post(`${base}/:id`, async (request, reply) => {
      const id = entryId(request, kind);
      // Another desk's entry, or none, is not found before the form is read: a refused form would
      // otherwise be drawn again as though the entry were there to edit.
      const stored = await storedValues(signedIn(request), kind, id);
      return submit(request, reply, id, stored);
    });
  }

  for (const kind of ['connection', 'arrangement', 'unit', 'watch'] as const) {
    const path = kind === 'connection' ? '/connections' : `/${PATH[kind]}`;
    app.get(`${path}/:id/remove`, async (request, reply) => {
      const ctx = signedIn(request);
      const id = entryId(request, kind);
      const name = await removableName(ctx, kind, id);
      return askToRemove(ctx, reply, {
        kind,
        name,
        action: `${path}/${id}/remove`,
        back: kind === 'connection' ? BACK[kind] : `${path}/${id}`,
        consequence:
          kind === 'arrangement' ? arrangementConsequence(await tiedToArrangement(ctx, id)) : CONSEQUENCE[kind],
      });
    });
    app.post(`${path}/:id/remove`, async (request, reply) => {
      const ctx = signedIn(request);
      const id = entryId(request, kind);
      const r = await once(ctx, request, () => removeEntry(ctx, kind, id));
      if (!r.ok) throw r.error;
      const notice = `The ${kind} "${r.value.name}" is removed.`;
      return toPageWith(ctx, reply, kind === 'connection' ? '/connections' : '/arrangements', {
        notice,
        refused: false,
      });
    });
  }
}

/** The page that asks before something is removed: what it is, what follows, and a way back. */
export function askToRemove(
  ctx: DeskContext,
  reply: FastifyReply,
  what: { kind: string; name: string; action: string; back: string; consequence: string },
): FastifyReply {
  return html(reply, RemovePage({ desk: ctx.desk.name, csrf: csrfToken(reply), idem: formKey(), ...what }));
}
