import type { FastifyInstance } from 'fastify';
import { DeskError } from '../../domain/errors.ts';
import { clampLimit, MAX_LIMIT } from '../../domain/input.ts';
import { listActivity } from '../../domain/record/activity.ts';
import { listEvents } from '../../domain/record/events.ts';
import { RecordPage } from '../pages/misc.tsx';
import { csrfToken, html } from '../reply.ts';

// The record: activity and the events log, newest first, as GET /activity and GET /events
// give them; "show more" asks for a longer page, up to the API's own limit.

const FIRST_PAGE = 25;

export async function recordScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/record', async (request, reply) => {
    const ctx = request.owner;
    if (!ctx) throw new DeskError('unauthorized', 'Sign in first.');
    const q = request.query as { events?: string; activity?: string };
    const limits = { events: clampLimit(q.events ?? FIRST_PAGE), activity: clampLimit(q.activity ?? FIRST_PAGE) };
    const [events, activity] = await Promise.all([
      listEvents(ctx, { limit: limits.events }),
      listActivity(ctx, { limit: limits.activity }),
    ]);
    return html(
      reply,
      RecordPage({
        desk: ctx.desk.name,
        zone: ctx.desk.timezone,
        csrf: csrfToken(reply),
        events: events.items,
        activity: activity.items,
        limits,
        max: MAX_LIMIT,
      }),
    );
  });
}
