import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink, lookAtSignInLink, SESSION_IDLE_DAYS } from '../../src/domain/owner/sign-in.ts';
import { addDays } from '../../src/domain/dates.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { addArrangement, addConnection, addSection, addUnit } from '../helpers/business.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { signInWithLink } from '../helpers/sign-in.ts';

// Dates from the harness's pinned clock: a row due a little after it, and that date snoozed 5 days.
const DUE = addDays(TEST_NOW.slice(0, 10), 9);
const SNOOZED = addDays(DUE, 5);

// The screen's doors, knocked on without a browser: the files it serves, the session a link
// starts, and the forms a session may send.

describe("the screen's guards", () => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('serves only its own asset files: a name that is a property of every object is not one', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await h.app.inject({ method: 'GET', url: `/assets/${name}` });
      expect(res.statusCode, name).toBe(404);
    }
    expect((await h.app.inject({ method: 'GET', url: '/assets/screen.js' })).statusCode).toBe(200);
  });

  /** The cookies a sign-in link sets, as a Cookie header's pairs. */
  async function signIn(deskId: string, cookies: Record<string, string> = {}): Promise<Record<string, string>> {
    const { token } = await createSignInLink(store.db, deskId, h.clock.now());
    return signInWithLink(h.app, token, cookies);
  }

  /** A page's CSRF token, and the cookies after drawing it. */
  async function formOf(cookies: Record<string, string>): Promise<{ csrf: string; cookies: Record<string, string> }> {
    const res = await h.app.inject({ method: 'GET', url: '/keys', cookies, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
    if (!csrf) throw new Error('no CSRF token on /keys');
    return { csrf, cookies: { ...cookies, ...Object.fromEntries(res.cookies.map((c) => [c.name, c.value])) } };
  }

  /** Sends a screen form as a browser would, with the session's cookies and the page's CSRF token. */
  const poster = (cookies: Record<string, string>, csrf: string) => (url: string, fields: Record<string, string>) =>
    h.app.inject({
      method: 'POST',
      url,
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
    });

  const page = (cookies: Record<string, string>) =>
    h.app.inject({ method: 'GET', url: '/keys', cookies, headers: { accept: 'text/html' } });

  it('each page the owner opens keeps the session cookie for 30 more days, as the server keeps the session; an asset sets none', async () => {
    const d = await makeDesk(store.db);
    const cookies = await signIn(d.desk.id);
    h.clock.advance(20 * 86_400_000);
    const opened = await page(cookies);
    const kept = opened.cookies.find((c) => c.name === 'desk_session');
    expect(kept).toMatchObject({ maxAge: SESSION_IDLE_DAYS * 86_400, httpOnly: true, sameSite: 'Lax', path: '/' });
    const asset = await h.app.inject({ method: 'GET', url: '/assets/screen.js', cookies });
    expect(asset.cookies.map((c) => c.name)).not.toContain('desk_session');
    // 25 days after that page (45 after signing in), the browser still holds it and the server takes it.
    h.clock.advance(25 * 86_400_000);
    const later = await page({ ...cookies, desk_session: kept!.value });
    expect(later.statusCode).toBe(200);
    expect(later.body).not.toContain('Sign in');
  });

  it('names what a remove page removes with its article: a unit, an arrangement', async () => {
    const d = await makeDesk(store.db);
    const cookies = await signIn(d.desk.id);
    const unit = await addUnit(store.db, d.desk.id, { name: 'Mill yard' });
    const lease = await addArrangement(store.db, d.desk.id, { name: 'Mill lease' });
    const title = async (url: string) =>
      /<title>([^<]*)<\/title>/.exec((await h.app.inject({ method: 'GET', url, cookies })).body)?.[1];
    expect(await title(`/units/${unit.id}/remove`)).toMatch(/^Remove a unit\b/);
    expect(await title(`/arrangements/${lease.id}/remove`)).toMatch(/^Remove an arrangement\b/);
  });

  it('an answer a shared cache may keep carries no session cookie, however its path is written', async () => {
    const d = await makeDesk(store.db);
    const cookies = await signIn(d.desk.id);
    // A page does: each use restarts the session's idle days in the browser (P-screen-23).
    const page = await h.app.inject({ method: 'GET', url: '/', cookies });
    expect(page.cookies.map((c) => c.name)).toContain('desk_session');
    for (const url of [
      '/favicon.ico',
      '/favicon.ico/',
      '/favicon.ico?x=1',
      '/assets/screen.css',
      '/%61ssets/screen.css',
    ]) {
      const res = await h.app.inject({ method: 'GET', url, cookies });
      expect(res.headers['cache-control'], url).toMatch(/^public, /);
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
  });

  it('HEAD says what GET would, sends no length on a 204, and takes no business file away', async () => {
    const d = await makeDesk(store.db);
    await makeWork(store.db, d.desk.id, { title: 'Pay the rates' });
    const cookies = await signIn(d.desk.id);
    const icon = await h.app.inject({ method: 'HEAD', url: '/favicon.ico' });
    expect(icon.statusCode).toBe(204);
    expect(icon.headers['content-length']).toBeUndefined();
    const exported = async () =>
      (await store.db.selectFrom('events').select('kind').where('desk_id', '=', d.desk.id).execute()).filter(
        (e) => e.kind === 'desk_exported',
      ).length;
    const head = await h.app.inject({ method: 'HEAD', url: '/business/download', cookies });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(await exported()).toBe(0);
    const got = await h.app.inject({ method: 'GET', url: '/business/download', cookies });
    expect(got.headers['content-length']).toBe(head.headers['content-length']);
    expect(got.headers['content-disposition']).toBe(head.headers['content-disposition']);
    expect(await exported()).toBe(1);
  });

  it("a run's live stream carries the request id every answer does", async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Pay the rates' });
    const form = await formOf(await signIn(d.desk.id));
    const started = await poster(form.cookies, form.csrf)(`/work/${row.id}/run`, {});
    expect(started.statusCode).toBe(303);
    const page = String(started.headers.location);
    expect(page).toMatch(new RegExp(`^/work/${row.id}/runs/`));
    // The row has nothing to run: its run ends at once, and the stream with it.
    const stream = await h.app.inject({ method: 'GET', url: `${page}/events`, cookies: form.cookies });
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['x-request-id']).toMatch(/\S/);
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.body).toContain('"type":"end"');
  });

  it("a run page for a run this server is not following answers 404, and points to the row's timeline", async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Pay the rates' });
    const cookies = await signIn(d.desk.id);
    const res = await h.app.inject({ method: 'GET', url: `/work/${row.id}/runs/no-such-run`, cookies });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('This run is no longer followed here; what came of it is on the row&#39;s timeline.');
    expect(res.body).toContain(`<a href="/work/${row.id}">Back to the row</a>`);
  });

  it('a link opened while signed out asks first: it starts no session and stays unused until agreed on its page', async () => {
    const a = await makeDesk(store.db);
    const { token } = await createSignInLink(store.db, a.desk.id, h.clock.now());
    const asked = await h.app.inject({ method: 'GET', url: `/sign-in?token=${token}` });
    expect(asked.statusCode).toBe(200);
    expect(asked.cookies.map((c) => c.name)).not.toContain('desk_session');
    expect(asked.body).toContain(`<h1>Sign in to ${a.desk.name}?</h1>`);
    expect((await lookAtSignInLink(store.db, token, h.clock.now())).ok).toBe(true);
    // A form on another site that posts the token (login CSRF) has no page token: refused.
    const planted = await h.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token }).toString(),
    });
    expect(planted.statusCode).toBe(403);
    expect(planted.cookies.map((c) => c.name)).not.toContain('desk_session');
    expect((await lookAtSignInLink(store.db, token, h.clock.now())).ok).toBe(true);
    // A link that no longer works says so at once, as before.
    const cookies = await signInWithLink(h.app, token);
    expect((await page(cookies)).body).toContain(a.desk.name);
    const again = await h.app.inject({ method: 'GET', url: `/sign-in?token=${token}` });
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain('already been used');
  });

  it('a form sent with no session is sent to sign in before its body is read', { timeout: 10_000 }, async () => {
    // A body that never ends: the answer can only come if nothing waits to read it all.
    const body = new PassThrough();
    body.write('--b\r\nContent-Disposition: form-data; name="file"; filename="desk.yaml"\r\n\r\n');
    const res = await h.app.inject({
      method: 'POST',
      url: '/business/import',
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(16 * 1024 * 1024) },
      payload: body,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/sign-in?not-done');
    body.destroy();
    // Where it lands says that what was sent was not done.
    const landed = await h.app.inject({ method: 'GET', url: '/sign-in?not-done', headers: { accept: 'text/html' } });
    expect(landed.statusCode).toBe(401);
    expect(landed.body).toContain('You were signed out, so what you last sent was not done.');
    // Sent by the page's script (the chat box), the whole page is sent there instead of a part.
    const part = await h.app.inject({
      method: 'POST',
      url: '/chat',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'hx-request': 'true' },
      payload: 'text=what+is+overdue%3F',
    });
    expect(part.statusCode).toBe(204);
    expect(part.headers['hx-redirect']).toBe('/sign-in?not-done');
    expect(part.body).toBe('');
  });

  it("another desk's block is not found, to look at or to remove, and stays", async () => {
    const a = await makeDesk(store.db);
    const b = await makeDesk(store.db);
    await addSection(store.db, b.desk.id, { id: 'invoices', title: 'Invoices' });
    const { csrf, cookies } = await formOf(await signIn(a.desk.id));
    const asked = await h.app.inject({ method: 'GET', url: '/blocks/invoices/remove', cookies });
    expect(asked.statusCode).toBe(404);
    const sent = await h.app.inject({
      method: 'POST',
      url: '/blocks/invoices/remove',
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, idempotency_key: 'k1' }).toString(),
    });
    expect(sent.statusCode).toBe(404);
    const held = await store.db.selectFrom('sections').select('id').where('desk_id', '=', b.desk.id).execute();
    expect(held).toEqual([{ id: 'invoices' }]);
  });

  it("a right-to-left override typed into a title stops at the title's end, in what the screen says of it", async () => {
    const d = await makeDesk(store.db);
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const title = 'Paid \u202Eevil';
    const added = await h.app.inject({
      method: 'POST',
      url: '/work',
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, title, idempotency_key: 'rlo-1' }).toString(),
    });
    expect(added.statusCode).toBe(303);
    const shown = await h.app.inject({
      method: 'GET',
      url: added.headers.location as string,
      cookies: { ...cookies, ...Object.fromEntries(added.cookies.map((c) => [c.name, c.value])) },
    });
    expect(shown.body).toContain('Added &#34;Paid \u202Eevil\u202C&#34; to the queue.');
    const [row] = await store.db.selectFrom('work').select('title').where('desk_id', '=', d.desk.id).execute();
    expect(row!.title).toBe('Paid \u202Eevil\u202C');
  });

  /** A row's edit form as drawn for a session: its page, its hidden fields, and a way to send it back. */
  async function editForm(rowId: number, cookies: Record<string, string>, url = `/work/${rowId}/edit`) {
    const drawn = await h.app.inject({ method: 'GET', url, cookies });
    const fields = Object.fromEntries(
      [...drawn.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const send = (values: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url,
        cookies: { ...cookies, ...Object.fromEntries(drawn.cookies.map((c) => [c.name, c.value])) },
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...fields, ...values }).toString(),
      });
    return { drawn, fields, send };
  }

  it('saving the edit form keeps a change another writer made after the page was drawn', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Renew the lease', due_date: DUE, priority: 60 });
    const cookies = await signIn(d.desk.id);
    const { drawn, fields, send } = await editForm(row.id, cookies);
    expect(drawn.statusCode).toBe(200);
    expect(fields).toMatchObject({ drawn_title: 'Renew the lease', drawn_due: DUE, drawn_priority: '60' });
    // Meanwhile a snooze moves the due date and the priority.
    const snoozed = await h.call('POST', `/api/v1/work/${row.id}/snooze`, { key: d.key, body: { days: 5 } });
    expect(snoozed.json().data).toMatchObject({ due_date: SNOOZED, priority: 55 });
    // The form goes back as it was drawn, but for the title.
    const sent = await send({
      title: 'Renew the shop lease',
      kind: 'general',
      class: '',
      due: DUE,
      priority: '60',
      contact_name: '',
      contact_email: '',
      arrangement_id: '',
      detail: '',
    });
    expect(sent.statusCode).toBe(303);
    const after = await store.db.selectFrom('work').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ title: 'Renew the shop lease', due_date: SNOOZED, priority: 55 });
  });

  it("saves an arrangement's amount with the currency the form showed it in, whatever another tab set since", async () => {
    const d = await makeDesk(store.db, { currency: 'GBP' });
    const cookies = await signIn(d.desk.id);
    const moved = async (amount: string, theirs: { amount_cents: number; currency: string }) => {
      const lease = await addArrangement(store.db, d.desk.id, { amount_cents: 1500, currency: 'GBP' });
      const url = `/arrangements/${lease.id}`;
      const { fields, send } = await editForm(lease.id, cookies, url);
      expect(fields).toMatchObject({ drawn_amount: '15.00', drawn_currency: 'GBP' });
      await store.db.updateTable('arrangements').set(theirs).where('id', '=', lease.id).execute();
      const asDrawn = Object.fromEntries(
        Object.entries(fields).flatMap(([k, v]) => (k.startsWith('drawn_') ? [[k.slice(6), v]] : [])),
      );
      const sent = await send({ ...asDrawn, amount });
      const kept = await store.db
        .selectFrom('arrangements')
        .select(['amount_cents', 'currency'])
        .where('id', '=', lease.id)
        .executeTakeFirstOrThrow();
      return { status: sent.statusCode, kept };
    };
    // The owner typed 15.50 against GBP: never 15.500 dinars, nor a refusal naming yen.
    expect(await moved('15.50', { amount_cents: 15000, currency: 'KWD' })).toEqual({
      status: 303,
      kept: { amount_cents: 1550, currency: 'GBP' },
    });
    expect(await moved('15.50', { amount_cents: 1500, currency: 'JPY' })).toEqual({
      status: 303,
      kept: { amount_cents: 1550, currency: 'GBP' },
    });
    // Left as drawn, the pair another tab set stands.
    expect(await moved('15.00', { amount_cents: 1500, currency: 'JPY' })).toEqual({
      status: 303,
      kept: { amount_cents: 1500, currency: 'JPY' },
    });
  });

  it('a title an earlier version took over two lines is no change when the form comes back without its line break', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Line one\nline two', priority: 60 });
    const cookies = await signIn(d.desk.id);
    const { drawn, send } = await editForm(row.id, cookies);
    // The box shows it on one line, as an edit of it would be saved.
    expect(drawn.body).toMatch(/name="title"[^>]*value="Line one line two"|value="Line one line two"[^>]*name="title"/);
    // Sent back with the line break dropped, as some browsers do, only the priority is changed.
    const sent = await send({
      drawn_title: 'Line one\nline two',
      title: 'Line oneline two',
      kind: 'general',
      class: '',
      due: '',
      priority: '70',
      contact_name: '',
      contact_email: '',
      arrangement_id: '',
      detail: '',
    });
    expect(sent.statusCode).toBe(303);
    const after = await store.db.selectFrom('work').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ title: 'Line one\nline two', priority: 70 });
  });

  it('shows a prepared subject drafted over two lines on one, in the box it is approved from', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Invoice', contact_email: 'a@b.test' });
    await makeDraft(store.db, d.desk.id, row.id, { subject: 'Invoice 88\nsecond line', to: 'a@b.test' });
    const cookies = await signIn(d.desk.id);
    const page = await h.app.inject({ method: 'GET', url: `/work/${row.id}`, cookies });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="approve-subject"[^>]*value="Invoice 88 second line"/);
  });

  it('approving a page drawn before the draft changed sends nothing, and the page drawn again shows it as it is now', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Deposit', contact_email: 'jo@frame.test' });
    const draft = await makeDraft(store.db, d.desk.id, row.id, {
      subject: 'The deposit',
      body: 'Hello Jo Frame,\n\nIs Monday fine?',
      to: 'jo@frame.test',
    });
    const cookies = await signIn(d.desk.id);
    const approveForm = async (jar: Record<string, string>) => {
      const page = await h.app.inject({ method: 'GET', url: `/work/${row.id}`, cookies: jar });
      const form = /<form method="post" action="\/work\/\d+\/approve"[\s\S]*?<\/form>/.exec(page.body)![0];
      const fields: Record<string, string> = {};
      for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
        fields[name!] = value!.replaceAll('&#39;', "'").replaceAll('&amp;', '&');
      return { page, fields, jar: { ...jar, ...Object.fromEntries(page.cookies.map((c) => [c.name, c.value])) } };
    };
    const drawn = await approveForm(cookies);
    expect(drawn.fields).toMatchObject({
      drawn_to: 'jo@frame.test',
      drawn_subject: 'The deposit',
      drawn_body: 'Hello Jo Frame,\n\nIs Monday fine?',
    });
    // The contact's name is corrected meanwhile, and the draft greets the corrected name.
    await store.db
      .updateTable('activity')
      .set({ body: 'Hello Joanna Frame,\n\nIs Monday fine?' })
      .where('id', '=', draft.id)
      .execute();
    const sent = await h.app.inject({
      method: 'POST',
      url: `/work/${row.id}/approve`,
      cookies: drawn.jar,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...drawn.fields,
        subject: 'The deposit',
        body: 'Hello Jo Frame,\r\n\r\nIs Monday fine?',
      }).toString(),
    });
    expect(sent.statusCode).toBe(303);
    const kept = await store.db
      .selectFrom('activity')
      .select(['body', 'status'])
      .where('id', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ body: 'Hello Joanna Frame,\n\nIs Monday fine?', status: 'drafted' });
    const written = await store.db
      .selectFrom('timeline')
      .select('kind')
      .where('work_id', '=', row.id)
      .where('kind', 'in', ['draft_edited', 'sent', 'send_failed', 'completed'])
      .execute();
    expect(written).toEqual([]);
    const again = await approveForm({
      ...drawn.jar,
      ...Object.fromEntries(sent.cookies.map((c) => [c.name, c.value])),
    });
    expect(again.page.body).toContain('The prepared message was changed since this page was drawn');
    expect(again.page.body).toContain('Hello Joanna Frame,');
    expect(again.fields).toMatchObject({ drawn_body: 'Hello Joanna Frame,\n\nIs Monday fine?' });
  });

  it("approving a page drawn before the draft changed keeps the owner's own edits in the form, with the message as it is now around them", async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Kiln', contact_email: 'pat@kilns.test' });
    const draft = await makeDraft(store.db, d.desk.id, row.id, {
      subject: 'Kiln delivery',
      body: 'Hello Pat Kiln,\n\nIs Thursday fine?',
      to: 'pat@kilns.test',
    });
    const approveForm = (body: string) => {
      const form = /<form method="post" action="\/work\/\d+\/approve"[\s\S]*?<\/form>/.exec(body)![0];
      const fields: Record<string, string> = {};
      for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
        fields[name!] = value!;
      return {
        fields,
        subject: /id="approve-subject"[^>]*value="([^"]*)"/.exec(form)?.[1],
        body: /<textarea[^>]*id="approve-body"[^>]*>([\s\S]*?)<\/textarea>/.exec(form)?.[1]?.trim(),
      };
    };
    let jar = await signIn(d.desk.id);
    const page = await h.app.inject({ method: 'GET', url: `/work/${row.id}`, cookies: jar });
    jar = { ...jar, ...Object.fromEntries(page.cookies.map((c) => [c.name, c.value])) };
    const drawn = approveForm(page.body);
    // Readdressed and regreeted after the page was drawn, as a corrected contact does.
    await store.db
      .updateTable('activity')
      .set({ to_address: 'pat@kiln-works.test', body: 'Hello Patricia Kiln,\n\nIs Thursday fine?' })
      .where('id', '=', draft.id)
      .execute();
    const post = (fields: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url: `/work/${row.id}/approve`,
        cookies: jar,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    // The owner rewrote the subject and sent the body back as shown.
    const refused = await post({
      ...drawn.fields,
      subject: 'Kiln delivery on Thursday',
      body: 'Hello Pat Kiln,\r\n\r\nIs Thursday fine?',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toMatch(
      /role="alert">\s*The prepared message was changed since this page was drawn[^<]*so nothing was sent[^<]*Your change to the subject is kept in the form below, not saved yet\./,
    );
    const again = approveForm(refused.body);
    expect(again.subject).toBe('Kiln delivery on Thursday');
    expect(again.body).toBe('Hello Patricia Kiln,\n\nIs Thursday fine?');
    expect(refused.body).toContain('To: <strong>pat@kiln-works.test</strong>');
    expect(again.fields).toMatchObject({
      drawn_to: 'pat@kiln-works.test',
      drawn_subject: 'Kiln delivery',
      drawn_body: 'Hello Patricia Kiln,\n\nIs Thursday fine?',
    });
    expect(again.fields.idempotency_key).not.toBe(drawn.fields.idempotency_key);
    const stored = () =>
      store.db
        .selectFrom('activity')
        .select(['subject', 'to_address', 'status'])
        .where('id', '=', draft.id)
        .executeTakeFirstOrThrow();
    expect(await stored()).toEqual({ subject: 'Kiln delivery', to_address: 'pat@kiln-works.test', status: 'drafted' });
    // Pressed again as drawn: the owner's subject goes to where the message now goes.
    const sent = await post({ ...again.fields, subject: again.subject!, body: again.body! });
    expect(sent.statusCode).toBe(303);
    expect(await stored()).toMatchObject({ subject: 'Kiln delivery on Thursday', to_address: 'pat@kiln-works.test' });
  });

  it('approving a page drawn before the draft was readdressed keeps both the subject and the message the owner rewrote', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Both', contact_email: 'a@b.test' });
    const draft = await makeDraft(store.db, d.desk.id, row.id, { subject: 'One', body: 'Body one', to: 'a@b.test' });
    const jar = await signIn(d.desk.id);
    const page = await h.app.inject({ method: 'GET', url: `/work/${row.id}`, cookies: jar });
    const cookies = { ...jar, ...Object.fromEntries(page.cookies.map((c) => [c.name, c.value])) };
    const hidden = Object.fromEntries(
      [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, n, v]) => [n!, v!]),
    );
    await store.db.updateTable('activity').set({ to_address: 'c@d.test' }).where('id', '=', draft.id).execute();
    const post = (fields: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url: `/work/${row.id}/approve`,
        cookies,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...hidden, ...fields }).toString(),
      });
    const both = await post({ subject: 'Two', body: 'Body two' });
    expect(both.statusCode).toBe(409);
    expect(both.body).toContain('Your changes to the subject and message are kept in the form below, not saved yet.');
    expect(both.body).toMatch(/id="approve-subject"[^>]*value="Two"/);
    expect(both.body).toMatch(/id="approve-body"[^>]*>\s*Body two\s*<\/textarea>/);
  });

  it('a new-mailbox form drawn before the desk gained a mailbox adds no second one, and says which it has', async () => {
    const d = await makeDesk(store.db);
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const mailboxes = async () =>
      (await store.db.selectFrom('connections').select('name').where('desk_id', '=', d.desk.id).execute()).map(
        (c) => c.name,
      );
    expect(await mailboxes()).toEqual([]);
    // Another tab adds one meanwhile.
    await addConnection(store.db, d.desk.id, { name: 'Mailbox A' });
    const sent = await poster(cookies, csrf)('/connections/mailbox', {
      name: 'Mailbox B',
      host: 'smtp.b.test',
      port: '587',
      security: 'starttls',
      user: 'b',
      pass: 'b-secret',
      from: 'b@b.test',
    });
    expect(sent.statusCode).toBe(303);
    expect(await mailboxes()).toEqual(['Mailbox A']);
    const page = await h.app.inject({
      method: 'GET',
      url: String(sent.headers.location),
      cookies: { ...cookies, ...Object.fromEntries(sent.cookies.map((c) => [c.name, c.value])) },
    });
    expect(page.body).toContain(
      'Not added: the desk has had the mailbox &#34;Mailbox A&#34; since this page was drawn',
    );
  });

  it('a mailbox saved with only its sender changed is logged as that, though it never had an inbox', async () => {
    const d = await makeDesk(store.db);
    const box = await addConnection(store.db, d.desk.id, {
      name: 'Shop mailbox',
      config: { host: '127.0.0.1', port: 2525, secure: false, starttls: true, pass: 'hunter2', from: 'shop@shop.test' },
    });
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const sent = await poster(cookies, csrf)('/connections/mailbox', {
      id: String(box.id),
      name: 'Shop mailbox',
      host: '127.0.0.1',
      port: '2525',
      security: 'starttls',
      user: '',
      pass: '',
      from: 'orders@shop.test',
      imap_host: '',
      imap_port: '993',
      imap_security: 'tls',
      imap_user: '',
      imap_pass: '',
      imap_mailbox: 'INBOX',
    });
    expect(sent.statusCode).toBe(303);
    const changed = await store.db
      .selectFrom('events')
      .select('data')
      .where('desk_id', '=', d.desk.id)
      .where('kind', '=', 'connection_changed')
      .execute();
    expect(changed.map((e) => JSON.parse(e.data).settings)).toEqual([['from']]);
  });

  it('two desks of the same name are told apart on the question by their addresses', async () => {
    const a = await makeDesk(store.db, { name: 'Corner Shop', slug: `corner-shop-${Date.now().toString(36)}` });
    const b = await makeDesk(store.db, { name: 'Corner Shop', slug: `corner-sh0p-${Date.now().toString(36)}` });
    const { token } = await createSignInLink(store.db, b.desk.id, h.clock.now());
    const signedOut = await h.app.inject({ method: 'GET', url: `/sign-in?token=${token}` });
    expect(signedOut.body).toContain(
      `This link signs this browser in to the desk Corner Shop, at the address <code>${b.desk.slug}</code>. It works once.`,
    );
    const asked = await h.app.inject({
      method: 'GET',
      url: `/sign-in?token=${token}`,
      cookies: await signIn(a.desk.id),
    });
    expect(asked.body).toContain(
      `This browser is signed in to Corner Shop, at the address <code>${a.desk.slug}</code>. The link you opened signs it in to Corner Shop, at the address <code>${b.desk.slug}</code>, instead, and out of Corner Shop.`,
    );
  });

  it("a link for another desk asks before it switches; agreeing ends the first desk's session", async () => {
    const a = await makeDesk(store.db);
    const b = await makeDesk(store.db);
    const first = await signIn(a.desk.id);
    const { token } = await createSignInLink(store.db, b.desk.id, h.clock.now());
    const asked = await h.app.inject({ method: 'GET', url: `/sign-in?token=${token}`, cookies: first });
    expect(asked.statusCode).toBe(200);
    // No session is started: the first desk's is only kept.
    const held = asked.cookies.filter((c) => c.name === 'desk_session').map((c) => c.value);
    expect(held).toEqual([first.desk_session]);
    expect(asked.body).toContain(`<h1>Sign in to ${b.desk.name}?</h1>`);
    expect(asked.body).toContain(`<button type="submit">Sign in to ${b.desk.name}</button>`);
    expect(asked.body).toContain(`<a href="/">Stay on ${a.desk.name}</a>`);
    // Asking changed nothing: the browser still works on the first desk.
    expect((await page(first)).body).toContain(a.desk.name);

    const csrf = /name="_csrf" value="([^"]+)"/.exec(asked.body)![1]!;
    const cookies = { ...first, ...Object.fromEntries(asked.cookies.map((c) => [c.name, c.value])) };
    const form = (fields: Record<string, string>, with_: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url: '/sign-in',
        cookies: with_,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    // Sent from anywhere but the question's own page, the form is refused and the link kept.
    expect((await form({ token }, cookies)).statusCode).toBe(403);
    expect((await lookAtSignInLink(store.db, token, h.clock.now())).ok).toBe(true);
    const agreed = await form({ _csrf: csrf, token }, cookies);
    expect(agreed.statusCode).toBe(303);
    const second = { desk_session: agreed.cookies.find((c) => c.name === 'desk_session')!.value };
    expect(second.desk_session).not.toBe(first.desk_session);
    expect((await page(second)).body).toContain(b.desk.name);
    // The cookie the browser no longer holds opens nothing.
    expect((await page({ desk_session: first.desk_session! })).statusCode).toBe(303);
    expect(await lookAtSignInLink(store.db, token, h.clock.now())).toEqual({ ok: false, reason: 'used' });
  });

  it('a link for the desk the browser is on signs in again at once, ending the old session', async () => {
    const a = await makeDesk(store.db);
    const first = await signIn(a.desk.id);
    const second = await signIn(a.desk.id, first);
    expect(second.desk_session).not.toBe(first.desk_session);
    expect((await page(second)).body).toContain(a.desk.name);
    expect((await page({ desk_session: first.desk_session! })).statusCode).toBe(303);
  });

  it("refuses a form sent with another session's CSRF token, even beside that session's CSRF cookie", async () => {
    const a = await makeDesk(store.db);
    const b = await makeDesk(store.db);
    const victim = await formOf(await signIn(a.desk.id));
    const other = await formOf(await signIn(b.desk.id));
    const post = (cookies: Record<string, string>, csrf: string) =>
      h.app.inject({
        method: 'POST',
        url: '/keys',
        cookies,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, name: 'planted', expires: '' }).toString(),
      });
    // The other session's token and secret cookie, planted beside the victim's session.
    const planted = await post({ desk_session: victim.cookies.desk_session!, _csrf: other.cookies._csrf! }, other.csrf);
    expect(planted.statusCode).toBe(403);
    // A session's own token still works.
    expect((await post(victim.cookies, victim.csrf)).statusCode).toBe(200);
  });

  it("a program's Idempotency-Key never stands for a form's key, whatever it is spelled", async () => {
    const d = await makeDesk(store.db);
    const theirs = await makeWork(store.db, d.desk.id, { title: 'Program row', due_date: DUE });
    const mine = await makeWork(store.db, d.desk.id, { title: 'Owner row', due_date: DUE });
    const key = 'form-key-1';
    const api = await h.call('POST', `/api/v1/work/${theirs.id}/snooze`, {
      key: d.key,
      body: { days: 1 },
      headers: { 'idempotency-key': `screen:${key}` },
    });
    expect(api.statusCode).toBe(200);
    const form = await formOf(await signIn(d.desk.id));
    const res = await h.app.inject({
      method: 'POST',
      url: `/work/${mine.id}/snooze`,
      cookies: form.cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({ _csrf: form.csrf, days: '3', idempotency_key: key }).toString(),
    });
    // Done, and sent on to the row's page.
    expect(res.statusCode).toBe(303);
    const due = async (id: number) =>
      (await store.db.selectFrom('work').select('due_date').where('id', '=', id).executeTakeFirstOrThrow()).due_date;
    expect([await due(theirs.id), await due(mine.id)]).toEqual([addDays(DUE, 1), addDays(DUE, 3)]);
  });

  it('the chat box refuses a question of only invisible characters as it refuses a blank one, and logs nothing', async () => {
    const d = await makeDesk(store.db);
    const form = await formOf(await signIn(d.desk.id));
    const ask = (text: string) =>
      h.app.inject({
        method: 'POST',
        url: '/chat',
        cookies: form.cookies,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: form.csrf, text, idempotency_key: '' }).toString(),
      });
    const chats = async () =>
      (
        await store.db
          .selectFrom('events')
          .select('id')
          .where('desk_id', '=', d.desk.id)
          .where('kind', '=', 'chat')
          .execute()
      ).length;
    for (const text of ['   ', '\u200B', ' \u200B\u200C\u200D\u2060\uFEFF\n']) {
      const res = await ask(text);
      expect(res.statusCode, JSON.stringify(text)).toBe(400);
      expect(res.body).toContain('Type a question before asking.');
    }
    expect(await chats()).toBe(0);
    expect((await ask('what is overdue?')).statusCode).toBe(200);
    expect(await chats()).toBe(1);
  });

  it("holds a form sent as multipart to the app's body limit; only the import takes a larger one", async () => {
    const d = await makeDesk(store.db);
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const multipart = (url: string, fields: Record<string, string>) => {
      const b = 'form-boundary';
      const parts = Object.entries(fields).map(
        ([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      );
      return h.app.inject({
        method: 'POST',
        url,
        cookies,
        headers: { 'content-type': `multipart/form-data; boundary=${b}` },
        payload: `${parts.join('')}--${b}--\r\n`,
      });
    };
    const keys = async () =>
      (await store.db.selectFrom('api_keys').select('name').where('desk_id', '=', d.desk.id).execute()).map(
        (k) => k.name,
      );
    const before = await keys();
    const res = await multipart('/keys', {
      _csrf: csrf,
      name: 'padded',
      expires: '',
      pad: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(res.statusCode).toBe(413);
    expect(res.body).toContain('What this form sent is more than the desk takes from one form, 1 MB.');
    expect(await keys()).toEqual(before);
    // A business file of a few megabytes is still read (and here refused for what it says).
    const imported = await multipart('/business/import', {
      _csrf: csrf,
      file: `desk: [${'x'.repeat(2 * 1024 * 1024)}`,
    });
    expect(imported.statusCode).toBe(400);
  });

  it("answers an address that is not valid URL text with the screen's Not found page; under /api, the envelope", async () => {
    const d = await makeDesk(store.db);
    const cookies = await signIn(d.desk.id);
    for (const url of ['/work/%ZZ', '/%ff', '/work/%e2%82/snooze?x=%ff']) {
      const res = await h.app.inject({ method: 'GET', url, cookies, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain('<title>Not found');
      expect(res.headers['content-security-policy'], url).toBeTruthy();
    }
    const typed = await h.app.inject({ method: 'GET', url: '/some%ZZpage', cookies, headers: { accept: 'text/html' } });
    expect(typed.body).toContain('There is no page at /some%ZZpage.');
    const api = await h.app.inject({ method: 'GET', url: '/api/v1/work/%ZZ', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
    // Under /api no shared cache keeps it, as any path no route serves there (P-headers-3).
    expect(api.headers['cache-control']).toBe('no-store');
  });

  it('HEAD to a path no API route serves is told what GET would be, to its length', async () => {
    for (const url of ['/api/v1/nothing-here', '/api/v1/me;a', '/api/v1/events//']) {
      const got = await h.app.inject({ method: 'GET', url });
      const head = await h.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(404);
      expect(head.headers['content-length'], url).toBe(got.headers['content-length']);
      expect(got.json().error.message, url).toBe(`No route GET ${url}.`);
    }
  });

  it('refuses a form sent as multipart whose bytes are not UTF-8, as it refuses the same form urlencoded', async () => {
    const d = await makeDesk(store.db);
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const b = 'form-boundary';
    const part = (name: string, value: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
        value,
        Buffer.from('\r\n'),
      ]);
    const rows = async () =>
      (await store.db.selectFrom('work').select('id').where('desk_id', '=', d.desk.id).execute()).length;
    const before = await rows();
    const res = await h.app.inject({
      method: 'POST',
      url: '/work',
      cookies,
      headers: { 'content-type': `multipart/form-data; boundary=${b}`, accept: 'text/html' },
      // "Café" written in Latin-1: its é is one byte that is not UTF-8.
      payload: Buffer.concat([
        part('_csrf', Buffer.from(csrf)),
        part('title', Buffer.from('Caf\xe9 order', 'latin1')),
        part('kind', Buffer.from('chase')),
        Buffer.from(`--${b}--\r\n`),
      ]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('The form holds text that is not whole characters.');
    expect(await rows()).toBe(before);
  });

  it('reads a field holding only spaces and zero-width characters as empty, refusing it as an empty one', async () => {
    const d = await makeDesk(store.db);
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const unseen = ' \u200B\uFEFF\u2060 ';
    const post = poster(cookies, csrf);
    const row = await post('/work', { title: unseen, kind: '', priority: '50' });
    expect(row.statusCode).toBe(400);
    expect(row.body).toContain('A row needs a title.');
    const lease = await post('/arrangements/new', { name: unseen, status: 'active' });
    expect(lease.statusCode).toBe(400);
    expect(lease.body).toContain('Name is required.');
    const key = await post('/keys', { name: unseen, expires: '' });
    expect(key.statusCode).toBe(400);
    expect(key.body).toContain('A key needs a name, such as the program that will hold it.');
    const written = async (table: 'work' | 'arrangements') =>
      (await store.db.selectFrom(table).select('id').where('desk_id', '=', d.desk.id).execute()).length;
    expect([await written('work'), await written('arrangements')]).toEqual([0, 0]);
    // Letters beside them are text, and kept as typed.
    const kept = await post('/arrangements/new', { name: '\u200BMill lease', status: 'active' });
    expect([kept.statusCode, kept.headers.location]).toEqual([303, '/arrangements']);
    expect(await written('arrangements')).toBe(1);
  });

  it('quotes no more than the start of a huge value it refuses', async () => {
    const d = await makeDesk(store.db);
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const huge = 'a'.repeat(100_000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/work',
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, title: 'Pay the rates', kind: '', priority: huge }).toString(),
    });
    expect(res.statusCode).toBe(400);
    const said = /<small id="work-priority-error"[^>]*>([^<]*)<\/small>/.exec(res.body)?.[1] ?? '';
    expect(said).toBe(`Priority must be a whole number from 1 to 100, not &#34;${'a'.repeat(60)}…&#34;.`);
    expect(said.length).toBeLessThan(500);
  });

  it("takes a unit's field named as a property of every object as a field like any other", async () => {
    const d = await makeDesk(store.db);
    const names = ['__proto__', 'constructor', 'toString'];
    await addSection(store.db, d.desk.id, {
      id: 'sites',
      kind: 'units',
      unit: 'site',
      fields: names.map((name) => ({ name, hint: '' })),
    });
    const fields = JSON.parse('{"__proto__": "2027-01-01", "prototype": "p"}');
    const odd = await addUnit(store.db, d.desk.id, { name: 'Proto Site', fields });
    await addUnit(store.db, d.desk.id, { name: 'Plain Site' });
    const listed = (await h.call('GET', '/api/v1/units', { key: d.key })).json().data.items;
    const proto = listed.find((u: { name: string }) => u.name === 'Proto Site');
    expect(Object.entries(proto.fields)).toEqual([
      ['__proto__', '2027-01-01'],
      ['prototype', 'p'],
    ]);

    const cookies = await signIn(d.desk.id);
    const home = await h.app.inject({ method: 'GET', url: '/', cookies, headers: { accept: 'text/html' } });
    expect(home.body).not.toContain('native code');
    expect(home.body).not.toContain('[object Object]');
    expect(home.body).toContain('2027-01-01');

    const { csrf, cookies: withForm } = await formOf(cookies);
    const post = poster(withForm, csrf);
    // Saved from its form with only its name changed, the unit keeps every field.
    const saved = await post(`/units/${odd.id}`, {
      type: 'site',
      name: 'Proto Site 2',
      fields: '__proto__: 2027-01-01\nprototype: p',
    });
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(303);
    const stored = await store.db
      .selectFrom('units')
      .select('fields')
      .where('id', '=', odd.id)
      .executeTakeFirstOrThrow();
    expect(Object.entries(JSON.parse(stored.fields))).toEqual([
      ['__proto__', '2027-01-01'],
      ['prototype', 'p'],
    ]);
    const made = await post('/units/new', { type: 'site', name: 'Named Site', fields: 'toString: x\nconstructor: y' });
    expect(made.statusCode, made.body.slice(0, 300)).toBe(303);
  });

  it("takes and shows an amount in its currency's own units, and saves a large one back as it was", async () => {
    const d = await makeDesk(store.db, { currency: 'JPY' });
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const post = poster(cookies, csrf);
    const amounts = async () =>
      (
        await store.db
          .selectFrom('arrangements')
          .select(['name', 'amount_cents', 'currency'])
          .where('desk_id', '=', d.desk.id)
          .orderBy('id')
          .execute()
      ).map((a) => [a.name, a.amount_cents, a.currency]);
    // Yen have no smaller unit: 1,500 typed is 1,500 kept, and 1,500.5 is no amount of yen.
    expect((await post('/arrangements/new', { name: 'Yen lease', status: 'active', amount: '1,500' })).statusCode).toBe(
      303,
    );
    const half = await post('/arrangements/new', { name: 'Half yen', status: 'active', amount: '1500.5' });
    expect(half.statusCode).toBe(400);
    expect(half.body).toContain('is not an amount in JPY, such as 1250.');
    // The amount is the mistake; the currency beside it is not a second one.
    const typed = await post('/arrangements/new', {
      name: 'Half yen',
      status: 'active',
      amount: '1500.5',
      currency: 'JPY',
    });
    expect(typed.statusCode).toBe(400);
    expect(typed.body).not.toContain('amount_cents');
    const page = await h.app.inject({ method: 'GET', url: '/arrangements', cookies, headers: { accept: 'text/html' } });
    expect(page.body).toContain('1,500 JPY');

    const big = await addArrangement(store.db, d.desk.id, {
      name: 'Large lease',
      amount_cents: Number.MAX_SAFE_INTEGER,
      currency: 'GBP',
    });
    const form = await h.app.inject({
      method: 'GET',
      url: `/arrangements/${big.id}`,
      cookies,
      headers: { accept: 'text/html' },
    });
    expect(form.body).toContain('value="90071992547409.91"');
    const saved = await post(`/arrangements/${big.id}`, {
      name: 'Large lease, renamed',
      status: 'active',
      amount: '90071992547409.91',
      currency: 'GBP',
    });
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(303);
    expect(await amounts()).toEqual([
      ['Yen lease', 1500, 'JPY'],
      ['Large lease, renamed', Number.MAX_SAFE_INTEGER, 'GBP'],
    ]);
    const shown = await h.app.inject({
      method: 'GET',
      url: '/arrangements',
      cookies,
      headers: { accept: 'text/html' },
    });
    expect(shown.body).toContain('90,071,992,547,409.91 GBP');
  });

  it("refuses an arrangement's or a unit's name past its length, beside the field", async () => {
    const d = await makeDesk(store.db);
    const { csrf, cookies } = await formOf(await signIn(d.desk.id));
    const post = poster(cookies, csrf);
    const lease = await post('/arrangements/new', { name: 'n'.repeat(201), status: 'active' });
    expect(lease.statusCode).toBe(400);
    expect(lease.body).toContain('Name must be at most 200 characters.');
    const unit = await post('/units/new', { type: 'site', name: 'n'.repeat(201) });
    expect(unit.statusCode).toBe(400);
    expect(unit.body).toContain('Name must be at most 200 characters.');
    const written = async (table: 'arrangements' | 'units') =>
      (await store.db.selectFrom(table).select('id').where('desk_id', '=', d.desk.id).execute()).length;
    expect([await written('arrangements'), await written('units')]).toEqual([0, 0]);
    const taken = await post('/arrangements/new', { name: 'n'.repeat(200), status: 'active' });
    expect([taken.statusCode, taken.headers.location]).toEqual([303, '/arrangements']);
    expect(await written('arrangements')).toBe(1);
  });
});

describe("the screen's request limit", () => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store, { config: { rateLimitPerMinute: 4 } });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it("counts a signed-in desk's pages in a bucket of its own, says when to come back, and leaves the page's files and other desks alone", async () => {
    const a = await makeDesk(store.db);
    const b = await makeDesk(store.db);
    const signIn = async (deskId: string) =>
      signInWithLink(h.app, (await createSignInLink(store.db, deskId, h.clock.now())).token);
    const first = await signIn(a.desk.id);
    const look = (cookies: Record<string, string>) =>
      h.app.inject({ method: 'GET', url: '/', cookies, headers: { accept: 'text/html' } });
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await look(first)).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 429]);
    const limited = await look(first);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('<h1>Too many requests</h1>');
    expect(limited.body).toMatch(/Too many requests from this desk&#39;s screen; try again in \d+ s\./);
    expect((await h.app.inject({ method: 'GET', url: '/assets/screen.js', cookies: first })).statusCode).toBe(200);
    // Signing the other desk in spends this address's own bucket (two requests a link), not
    // the first desk's; its pages then count in a bucket of their own.
    const second = await signIn(b.desk.id);
    expect((await look(second)).statusCode).toBe(200);
  });
});
