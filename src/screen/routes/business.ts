import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DeskContext } from '../../domain/context.ts';
import { exportDesk } from '../../domain/business/export.ts';
import { deskHoldings, importIntoDesk } from '../../domain/business/import-here.ts';
import { badRequest } from '../../domain/errors.ts';
import { plural } from '../../domain/text.ts';
import { findDesk } from '../../store/repositories/desks.ts';
import { once } from '../once.ts';
import { BusinessPage, type BusinessView } from '../pages/business.tsx';
import { csrfToken, fieldOf, formKey, html } from '../reply.ts';
import { signedIn } from './owner.ts';
import { noticeFor, toPageWith } from '../notice.ts';
import { inRows } from '../words.ts';

// The business file both ways, over the verbs `desk export` and `desk import` use: Download
// sends the file as an attachment; Import reads one into this desk while it holds nothing.

const NOT_UTF8 = 'The file is not UTF-8 text. Save it as UTF-8 and import it again.';

/** A business file is text; a large desk's runs to a few megabytes. */
export const IMPORT_LIMIT = 16 * 1024 * 1024;

async function businessPage(
  ctx: DeskContext,
  reply: FastifyReply,
  extra: Pick<BusinessView, 'notice' | 'error' | 'typed'> = {},
  status = 200,
): Promise<FastifyReply> {
  // An import renames the desk; the page shows the name it has now.
  const desk = (await findDesk(ctx.db, ctx.desk.id)) ?? ctx.desk;
  const holds = await deskHoldings(ctx);
  return html(
    reply,
    BusinessPage({
      desk: desk.name,
      slug: desk.slug,
      csrf: csrfToken(reply),
      importKey: formKey(),
      holds: holds ? inRows(holds.words) : null,
      ...extra,
    }),
    status,
  );
}

export async function businessScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/business', async (request, reply) =>
    businessPage(signedIn(request), reply, { notice: noticeFor(request, reply, '/business') }),
  );

  app.get('/business/download', async (request, reply) => {
    const ctx = signedIn(request);
    // HEAD is answered as GET is, its length too, but takes nothing away: the record says nothing of it.
    const file = await exportDesk(ctx, 'yaml', undefined, undefined, request.method !== 'HEAD');
    return reply
      .header('content-type', 'application/yaml; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
      .header('cache-control', 'no-store')
      .send(file.text);
  });

  app.post(
    '/business/import',
    { bodyLimit: IMPORT_LIMIT, config: { takesFile: ['file', 'text'] } },
    async (request, reply) => {
      const ctx = signedIn(request);
      const uploaded = fieldOf(request.body, 'file');
      const typed = fieldOf(request.body, 'text');
      const named = uploaded.trim() !== '';
      const text = named ? uploaded : typed;
      // A file's name says how to read it (P-import-2), as on the command line: flow.yaml is YAML even when it opens with "{".
      const filename = fieldOf(request.body, 'file:filename');
      const source = named && /\.(ya?ml|json)$/i.test(filename) ? filename : 'The file';
      const r = await once(ctx, request, async () => {
        if (request.notUtf8) throw badRequest(NOT_UTF8);
        if (text.trim() === '') throw badRequest('Choose a business file, or paste one, to import.');
        return importIntoDesk(ctx, text, source);
      });
      if (!r.ok) {
        if (r.error.code !== 'bad_request') throw r.error;
        const list = Array.isArray(r.error.details?.errors) ? (r.error.details.errors as string[]) : [];
        // With a list to show, the sentence above it only counts; the list says what each one is.
        const message =
          list.length > 1
            ? `The business file has ${plural(list.length, 'error')}; nothing was written. Fix them all and import it again:`
            : inRows(r.error.message);
        return businessPage(ctx, reply, { error: { message, list, from: named ? 'file' : 'text' }, typed }, 400);
      }
      const c = r.value.counts;
      return toPageWith(ctx, reply, '/business', {
        refused: false,
        notice: `Imported: ${[plural(c.work, 'row'), plural(c.arrangements, 'arrangement'), plural(c.units, 'unit'), plural(c.watches, 'watch', 'watches'), plural(c.connections, 'connection')].join(', ')}.${c.connections > 0 ? " A connection's password the file left out (a downloaded file leaves them all out) is entered again on the Connections page." : ''}`,
      });
    },
  );
}
