import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DeskContext } from '../../domain/context.ts';
import { setRails, type Rails } from '../../domain/desks/rails.ts';
import { ownRecord } from '../../domain/work/own-record.ts';
import { changedFromDrawn, drawnValues } from '../drawn.ts';
import { once } from '../once.ts';
import { OwnPage, type RAIL_FIELDS, type OwnView } from '../pages/own.tsx';
import { csrfToken, fieldOf, formKey, html } from '../reply.ts';
import { saidToOwner } from '../words.ts';
import { signedIn } from './owner.ts';
import { noticeFor, toPageWith } from '../notice.ts';

// GET /on-its-own shows the rails and what the desk did by itself; the two forms set the rails
// and press pause or resume through the same verb as `desk desks set/pause/resume`.

async function ownPage(
  ctx: DeskContext,
  reply: FastifyReply,
  extra: Pick<OwnView, 'notice' | 'errors' | 'typed' | 'drawn'> = {},
  status = 200,
): Promise<FastifyReply> {
  const record = await ownRecord(ctx);
  return html(
    reply,
    OwnPage({
      desk: ctx.desk.name,
      slug: ctx.desk.slug,
      timezone: ctx.desk.timezone,
      csrf: csrfToken(reply),
      record,
      keys: { rails: formKey(), pause: formKey() },
      ...extra,
    }),
    status,
  );
}

/** A number as typed, or the text itself for the rails to refuse by name. */
function count(raw: string): number | string {
  return /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
}

export async function ownScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/on-its-own', async (request, reply) =>
    ownPage(signedIn(request), reply, { notice: noticeFor(request, reply, '/on-its-own') }),
  );

  app.post('/on-its-own/rails', async (request, reply) => {
    const ctx = signedIn(request);
    const typed = {
      hours: fieldOf(request.body, 'hours'),
      daily_cap: fieldOf(request.body, 'daily_cap'),
      act_within_days: fieldOf(request.body, 'act_within_days'),
    };
    // A rail left as the form was drawn is not sent: a form open in another tab, or drawn before
    // the CLI set a rail, would put back the old value of a rail the owner did not touch.
    const drawn = drawnValues(request.body);
    const changed = (f: (typeof RAIL_FIELDS)[number]) => changedFromDrawn(typed, drawn, f);
    const input = {
      ...(changed('hours') ? { hours: typed.hours } : {}),
      ...(changed('daily_cap') ? { daily_cap: count(typed.daily_cap) } : {}),
      ...(changed('act_within_days') ? { act_within_days: count(typed.act_within_days) } : {}),
    };
    const r = await once(ctx, request, () => setRails(ctx, input as Partial<Rails>));
    if (!r.ok) {
      if (r.error.code !== 'bad_request') throw r.error;
      const list = (r.error.details?.errors as string[] | undefined) ?? [];
      const errors = Object.fromEntries(
        list.map((e) => {
          const field = e.slice(0, e.indexOf(':'));
          return [field, saidToOwner(e.slice(e.indexOf(':') + 1).trim(), field)];
        }),
      );
      return ownPage(ctx, reply, { errors, typed, drawn }, 400);
    }
    return toPageWith(ctx, reply, '/on-its-own', { notice: 'The rails are saved.', refused: false });
  });

  app.post('/on-its-own/pause', async (request, reply) => {
    const ctx = signedIn(request);
    const paused = fieldOf(request.body, 'paused') === 'yes';
    const r = await once(ctx, request, () => setRails(ctx, { paused }));
    if (!r.ok) throw r.error;
    return toPageWith(ctx, reply, '/on-its-own', {
      // The state itself is said just below; the notice says what the press did.
      notice: paused ? 'The desk is paused.' : 'Resumed: the desk works its list on its own.',
      refused: false,
    });
  });
}
