import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeskContext } from '../../domain/context.ts';
import { connectionSettings, type ConnectionSettings } from '../../domain/desks/connection-settings.ts';
import { inboxFields, mailboxInput, portalInput, securityOf } from '../../domain/desks/mailbox-form.ts';
import { checkInbox } from '../../domain/desks/check-inbox.ts';
import { saveConnection } from '../../domain/desks/save-connection.ts';
import { testMailbox } from '../../domain/desks/test-mailbox.ts';
import { type DeskError, notFound } from '../../domain/errors.ts';
import { parseId, positiveId } from '../../domain/input.ts';
import { changedOverNow, drawnValues } from '../drawn.ts';
import { once } from '../once.ts';
import { ConnectionsPage, type ConnectionsView } from '../pages/connections.tsx';
import type { FormState } from '../pages/form-fields.tsx';
import { csrfToken, formKey, html } from '../reply.ts';
import { signedIn } from './owner.ts';
import { noticeFor, toPageWith } from '../notice.ts';

// The mailbox and the portal sign-ins, written through saveConnection; "Send a test message"
// goes through the desk's own mailer. Secrets are never drawn back, and never kept in a form's
// idempotency record: what is typed is drawn again after a refusal, passwords excepted.

type Forms = Record<string, FormState>;

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function storedForms(connections: ConnectionSettings[], mailbox: ConnectionSettings | null): Forms {
  const forms: Forms = {};
  if (mailbox) {
    const s = mailbox.settings;
    forms.mailbox = {
      values: {
        name: mailbox.name,
        host: text(s.host),
        port: text(s.port),
        security: securityOf(s),
        user: text(s.user),
        from: text(s.from),
        ...inboxFields(s),
      },
      errors: {},
    };
    forms.mailbox.drawn = forms.mailbox.values;
  } else
    forms.mailbox = { values: { port: '587', security: 'starttls', name: 'Mailbox', ...inboxFields({}) }, errors: {} };
  for (const c of connections) {
    if (c.auth_type !== 'login') continue;
    const values: Record<string, string> = { name: c.name, portal: c.provider, username: text(c.settings.username) };
    for (const p of c.playbooks) values[`playbook-${p.id}`] = 'yes';
    forms[`portal-${c.id}`] = { values, errors: {}, drawn: values };
  }
  return forms;
}

/** A form's values as the stored connections would draw it now. */
function storedFormValues(connections: ConnectionSettings[], formName: string): Record<string, string> | null {
  const mailbox = connections.find((c) => c.category === 'mail') ?? null;
  return storedForms(connections, mailbox)[formName]?.values ?? null;
}

export async function connectionsPage(
  ctx: DeskContext,
  reply: FastifyReply,
  extra: {
    forms?: Forms;
    notice?: string;
    tested?: ConnectionsView['tested'];
    checked?: ConnectionsView['checked'];
  } = {},
  status = 200,
): Promise<FastifyReply> {
  const { connections, playbooks } = await connectionSettings(ctx);
  const mailbox = connections.find((c) => c.category === 'mail') ?? null;
  const signIns = connections.filter((c) => c.auth_type === 'login');
  const others = connections.filter((c) => c !== mailbox && c.auth_type !== 'login');
  const forms = { ...storedForms(connections, mailbox), ...(extra.forms ?? {}) };
  const keys: Record<string, string> = {
    mailbox: formKey(),
    test: formKey(),
    inbox: formKey(),
    'portal-new': formKey(),
  };
  for (const c of signIns) keys[`portal-${c.id}`] = formKey();
  return html(
    reply,
    ConnectionsPage({
      desk: ctx.desk.name,
      csrf: csrfToken(reply),
      mailbox,
      signIns,
      others,
      playbooks,
      keys,
      forms,
      ...(extra.notice ? { notice: extra.notice } : {}),
      ...(extra.tested ? { tested: extra.tested } : {}),
      ...(extra.checked ? { checked: extra.checked } : {}),
    }),
    status,
  );
}

const SECRETS = ['pass', 'password', 'imap_pass'];

/** The form's fields as typed, less the secrets and the form's own keys. */
function typed(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (typeof v !== 'string' || ['_csrf', 'idempotency_key', 'id', ...SECRETS].includes(k)) continue;
    out[k] = v;
  }
  return out;
}

/**
 * A secret is never drawn back, so one typed into a refused form is gone: the form says so
 * beside it, or the owner would correct the other field and save with the old secret (or none).
 * Said in place of its hint, not as an error: the mistake to look at first is elsewhere.
 */
function secretsToRetype(body: unknown, errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const k of SECRETS) {
    const v = (body as Record<string, unknown>)[k];
    if (typeof v === 'string' && v !== '' && !errors[k])
      out[k] = 'The password you typed is not kept on a refused form; type it again.';
  }
  return out;
}

// The verb names a sign-in's service `provider`, as the business file does; its form calls it
// `portal`, and a refusal is said beside the field the form has.
const FORM_FIELD: Record<string, string> = { provider: 'portal' };

function refusal(err: DeskError): Record<string, string> {
  const fields = err.details?.fields;
  if (fields && typeof fields === 'object')
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [FORM_FIELD[k] ?? k, String(v)]));
  return { name: err.message };
}

export async function connectionScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/connections', async (request, reply) =>
    connectionsPage(signedIn(request), reply, { notice: noticeFor(request, reply, '/connections') }),
  );

  const save = async (
    request: FastifyRequest,
    reply: FastifyReply,
    formName: string,
    /** The connection edited, with the desk's connections as they are now; null for a new one. */
    editing: { id: number; connections: ConnectionSettings[] } | null,
    // Read inside the form's answer, so a choice the form does not offer is refused beside its field.
    input: (body: Record<string, string | undefined>) => Parameters<typeof saveConnection>[2],
  ) => {
    const ctx = signedIn(request);
    const body = request.body as Record<string, string | undefined>;
    const drawn = drawnValues(body);
    // A field left as drawn is saved as it is now: another tab's change to it stands. (Secrets
    // are never drawn, so one typed is always the owner's own.)
    const id = editing?.id ?? null;
    const now = editing && storedFormValues(editing.connections, formName);
    const sent = now === null ? body : { ...body, ...changedOverNow(typed(body), drawn, now) };
    // The Mailbox form adds one only to a desk that has none: drawn when it had none, it may
    // have gained one since (another tab, the CLI), which the owner is told of, not given a second.
    const r = await once(ctx, request, async () => {
      const since =
        formName === 'mailbox' && id === null
          ? (await connectionSettings(ctx)).connections.find((c) => c.category === 'mail')
          : undefined;
      return since ? { notAdded: since.name } : saveConnection(ctx, id, input(sent));
    });
    if (!r.ok) {
      if (r.error.code !== 'bad_request') throw r.error;
      const errors = refusal(r.error);
      const notes = secretsToRetype(body, errors);
      const form = { values: typed(body), errors, notes, ...(id === null ? {} : { drawn }) };
      return connectionsPage(ctx, reply, { forms: { [formName]: form } }, 400);
    }
    if ('notAdded' in r.value)
      return toPageWith(ctx, reply, '/connections', {
        notice: `Not added: the desk has had the mailbox "${r.value.notAdded}" since this page was drawn, and sends through it. Its settings are below; change them there if yours should be the desk's.`,
        refused: true,
      });
    const what = formName === 'mailbox' ? 'mailbox' : 'sign-in';
    return toPageWith(ctx, reply, '/connections', {
      notice: `The ${what} "${r.value.name}" is ${r.value.created ? 'added' : 'saved'}.`,
      refused: false,
    });
  };

  app.post('/connections/mailbox', async (request, reply) => {
    const ctx = signedIn(request);
    const body = (request.body ?? {}) as Record<string, string | undefined>;
    let editing: { id: number; connections: ConnectionSettings[] } | null = null;
    if (body.id) {
      const id = positiveId(body.id) ?? -1;
      const { connections } = await connectionSettings(ctx);
      if (connections.find((c) => c.id === id)?.category !== 'mail') throw notFound('mailbox', body.id);
      editing = { id, connections };
    }
    return save(request, reply, 'mailbox', editing, (sent) =>
      mailboxInput(sent, editing ? drawnValues(body) : undefined),
    );
  });

  app.post('/connections/portals', async (request, reply) => {
    return save(request, reply, 'portal-new', null, (sent) => portalInput(sent));
  });

  app.post('/connections/portals/:id', async (request, reply) => {
    const ctx = signedIn(request);
    const raw = (request.params as { id: string }).id;
    const id = positiveId(raw) ?? -1;
    const { connections } = await connectionSettings(ctx);
    const before = connections.find((c) => c.id === id);
    if (before?.auth_type !== 'login') throw notFound('sign-in', raw);
    // An edit keeps what the sign-in is for; only a new one is filed under "portal".
    return save(request, reply, `portal-${id}`, { id, connections }, (sent) => ({
      ...portalInput(sent),
      category: before.category,
    }));
  });

  app.post('/connections/mailbox/test', async (request, reply) => {
    const ctx = signedIn(request);
    const body = (request.body ?? {}) as Record<string, string | undefined>;
    const id = parseId(body.id, 'mailbox');
    const to = body.to ?? '';
    const r = await once(ctx, request, () => testMailbox(ctx, id, to));
    if (!r.ok) {
      if (r.error.code !== 'bad_request') throw r.error;
      return connectionsPage(ctx, reply, { forms: { test: { values: { to }, errors: { to: r.error.message } } } }, 400);
    }
    return connectionsPage(ctx, reply, {
      forms: { test: { values: { to }, errors: {} } },
      tested: { ok: r.value.ok, said: r.value.said },
    });
  });

  app.post('/connections/mailbox/check-inbox', async (request, reply) => {
    const ctx = signedIn(request);
    const body = (request.body ?? {}) as Record<string, string | undefined>;
    const id = parseId(body.id, 'mailbox');
    const r = await once(ctx, request, () => checkInbox(ctx, id));
    if (!r.ok) {
      if (r.error.code !== 'bad_request') throw r.error;
      return connectionsPage(ctx, reply, { checked: { ok: false, said: r.error.message } }, 400);
    }
    return connectionsPage(ctx, reply, { checked: r.value });
  });
}
