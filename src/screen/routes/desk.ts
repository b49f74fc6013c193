import { ROOT_INDEX } from '../root-index.ts';
import { repliesToRead } from '../../domain/mail/unread.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { askDesk } from '../../domain/chat/ask.ts';
import type { DeskContext } from '../../domain/context.ts';
import { permissionSummary } from '../../domain/desks/permissions.ts';
import { listSections, removeSection, sectionTitle, withOtherKinds } from '../../domain/desks/sections.ts';
import { blockContents } from '../../domain/desks/block-contents.ts';
import { noticeFor, toPageWith } from '../notice.ts';
import { signedIn } from './owner.ts';
import { askToRemove } from './setup.ts';
import { workCounts } from '../../domain/desks/summary.ts';
import { DeskError } from '../../domain/errors.ts';
import { isLaterPage, kindsOpen, listWork } from '../../domain/work/list.ts';
import { csrfToken, fieldOf, formKey, html } from '../reply.ts';
import { SignInPage } from '../pages/misc.tsx';
import { ChatAnswer, DeskPage, type ChatView } from '../pages/desk.tsx';
import { once } from '../once.ts';
import { readTrail } from '../pager.ts';
import { saidToOwner } from '../words.ts';

// GET / (the desk page), POST /chat (the chat box; a partial answer for htmx, the whole page
// without it), and taking a block off the page.

const UNREAD_PAGE = 'The page in that address could not be read, so this is the first page of the queue.';

type Query = { status?: string; kind?: string; cursor?: string; back?: string };
type Filters = { status?: string; kind?: string; cursor?: string };

function filters(q: Query): Filters {
  const f: Filters = {};
  if (q.status) f.status = q.status;
  if (q.kind) f.kind = q.kind;
  if (q.cursor) f.cursor = q.cursor;
  return f;
}

async function deskPage(
  ctx: DeskContext,
  reply: FastifyReply,
  q: Query,
  chat: ChatView,
  status = 200,
  notice?: string,
): Promise<FastifyReply> {
  const f = filters(q);
  let page: Awaited<ReturnType<typeof listWork>>;
  try {
    page = await listWork(ctx, f);
  } catch (err) {
    // A status the API would refuse shows the whole queue with the filter cleared.
    if (!(err instanceof DeskError) || err.code !== 'bad_request') throw err;
    delete f.status;
    page = await listWork(ctx, f);
  }
  // A cursor the queue could not read (an address cut short, a page of other filters) gave the
  // first page, and the page says so rather than "more", and why, unless a form's outcome is
  // what the owner must read.
  if (f.cursor && !(await isLaterPage(ctx, f))) {
    delete f.cursor;
    notice ??= UNREAD_PAGE;
  }
  // The stored blocks and the open kinds, read once: the blocks drawn (the block of other kinds
  // after the stored ones, as GET /desk has them), the ones the owner may remove, and the filter.
  const [stored, perms, counts, replies, kinds] = await Promise.all([
    listSections(ctx),
    permissionSummary(ctx),
    workCounts(ctx),
    repliesToRead(ctx),
    kindsOpen(ctx),
  ]);
  const sections = withOtherKinds(stored, kinds);
  const contents = await blockContents(ctx, sections);
  return html(
    reply,
    DeskPage({
      desk: ctx.desk.name,
      csrf: csrfToken(reply),
      counts: {
        needs_you: perms.needs_you,
        with_desk: perms.with_desk,
        waiting: counts.waiting,
        replies,
        done_today: counts.closed_today,
      },
      sections,
      contents,
      kept: new Set(stored.map((s) => s.id)),
      notice,
      kinds,
      page,
      filters: f,
      trail: f.cursor ? readTrail(q.back) : null,
      chat,
    }),
    status,
  );
}

/** What the sign-in page tells a signed-out browser to run for a link to this server. */
export interface SignInHelp {
  linkCommand: (request: FastifyRequest) => string;
}

export async function deskScreenRoutes(app: FastifyInstance, help: SignInHelp): Promise<void> {
  app.get('/', async (request, reply) => {
    const ctx = request.owner;
    if (!ctx) {
      // A program or `curl` asking what is here gets the index; a browser gets the sign-in page.
      if (!/text\/html/.test(request.headers.accept ?? '')) return reply.send(ROOT_INDEX);
      return html(reply, SignInPage({ command: help.linkCommand(request) }), 401);
    }
    return deskPage(ctx, reply, request.query as Query, { key: formKey() }, 200, noticeFor(request, reply, '/'));
  });

  app.post('/chat', async (request, reply) => {
    const ctx = signedIn(request);
    const text = fieldOf(request.body, 'text');
    const r = await once(ctx, request, () => askDesk(ctx, { text }));
    const chat: ChatView = r.ok
      ? { key: formKey(), asked: r.value }
      : { key: formKey(), error: saidToOwner(r.error.message), text };
    if (request.headers['hx-request'] === 'true') return html(reply, ChatAnswer({ chat, oob: true }));
    return deskPage(ctx, reply, {}, chat, r.ok ? 200 : 400);
  });

  app.get('/blocks/:id/remove', async (request, reply) => {
    const ctx = signedIn(request);
    const id = (request.params as { id: string }).id;
    const title = await sectionTitle(ctx, id);
    return askToRemove(ctx, reply, {
      kind: 'block',
      name: title,
      action: `/blocks/${encodeURIComponent(id)}/remove`,
      back: `/#section-${id}`,
      consequence: 'It comes off the desk page. The rows it shows stay as they are.',
    });
  });

  app.post('/blocks/:id/remove', async (request, reply) => {
    const ctx = signedIn(request);
    const id = (request.params as { id: string }).id;
    const r = await once(ctx, request, () => removeSection(ctx, id));
    if (!r.ok) throw r.error;
    return toPageWith(ctx, reply, '/', { notice: `The block "${r.value.title}" is removed.`, refused: false });
  });
}
