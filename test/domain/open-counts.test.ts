import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBusinessText } from '../../src/domain/business/import.ts';
import { DEMO_FILE } from '../../src/domain/business/demo.ts';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { deleteDesk } from '../../src/domain/desks/manage.ts';
import { addWork } from '../../src/domain/work/add.ts';
import { assignWork } from '../../src/domain/work/assign.ts';
import { completeWork } from '../../src/domain/work/complete.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { snoozeWork } from '../../src/domain/work/snooze.ts';
import { closeWork, reopenWork } from '../../src/domain/work/status.ts';
import {
  openByArrangement,
  openByClass,
  openOutWith,
  recountByArrangement,
  recountByClass,
} from '../../src/store/repositories/open-counts.ts';
import { countOpenWork, insertWork, moveWork, updateWork } from '../../src/store/repositories/work.ts';
import { atomicallyOn } from '../../src/store/tx.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { workValues } from '../helpers/factories.ts';

// The stored counts behind open_total, /permissions and /arrangements must equal a count of
// the rows themselves after every kind of write.

const byKey = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

describe.each(DIALECTS)('stored open counts ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;
  let arrangements: number[];

  const agree = async () => {
    const deskId = ctx.desk.id;
    const today = ctx.today();
    expect(byKey(await openByClass(store.db, deskId))).toEqual(byKey(await recountByClass(store.db, deskId)));
    expect(byKey(await openByArrangement(store.db, deskId, today))).toEqual(
      byKey(await recountByArrangement(store.db, deskId, today)),
    );
    const out = (await recountByClass(store.db, deskId)).filter((r) => r.out === 1).reduce((s, r) => s + r.n, 0);
    expect(await openOutWith(store.db, deskId)).toBe(out);
    const desk = await store.db.selectFrom('desks').select('open_count').where('id', '=', deskId).executeTakeFirst();
    expect(Number(desk?.open_count)).toBe(await countOpenWork(store.db, deskId));
  };
  const rowIds = async (open: boolean) =>
    (
      await store.db
        .selectFrom('work')
        .select('id')
        .where('desk_id', '=', ctx.desk.id)
        .where('status', open ? 'in' : 'not in', ['open', 'in_progress', 'waiting'])
        .orderBy('id')
        .execute()
    ).map((r) => r.id);

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const imported = await importBusinessText(store.db, fs.readFileSync(DEMO_FILE, 'utf8'), {
      now: new Date(TEST_NOW),
    });
    const desk = await store.db
      .selectFrom('desks')
      .selectAll()
      .where('id', '=', imported.desk.id)
      .executeTakeFirstOrThrow();
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'Owner' });
    arrangements = (
      await store.db.selectFrom('arrangements').select('id').where('desk_id', '=', desk.id).orderBy('id').execute()
    ).map((r) => r.id);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('an imported desk starts with counts that match its rows, several arrangements among them', async () => {
    expect(arrangements.length).toBeGreaterThan(2);
    expect((await openByArrangement(store.db, ctx.desk.id, ctx.today())).length).toBeGreaterThan(1);
    expect((await openByClass(store.db, ctx.desk.id)).length).toBeGreaterThan(2);
    await agree();
  });

  it('adding rows, with and without a class, an arrangement, a date or somebody awaited', async () => {
    await addWork(ctx, { title: 'Plain row' });
    await addWork(ctx, { title: 'Full row', class: 'file', arrangement_id: arrangements[0], due: '2026-12-01' });
    await addWork(ctx, { title: 'Out row', class: 'chase', waiting_on: 'Sam', arrangement_id: arrangements[1] });
    await agree();
  });

  it('editing the class, the arrangement, the due date and who is awaited', async () => {
    const [a, b, c] = await rowIds(true);
    await editWork(ctx, a!, { class: 'money', arrangement_id: arrangements[2], due: '2026-11-01' });
    await agree();
    await editWork(ctx, b!, { class: null, arrangement_id: null, due: null, waiting_on: 'Priya' });
    await agree();
    await editWork(ctx, c!, { waiting_on: null, arrangement_id: arrangements[0] });
    await agree();
  });

  it('snoozing, assigning, completing by hand, closing and reopening', async () => {
    const [a, b, c] = await rowIds(true);
    await snoozeWork(ctx, a!, 5);
    await agree();
    await assignWork(ctx, b!, 'Ana');
    await agree();
    const byHand = await addWork(ctx, { title: 'Done by hand', class: 'file', arrangement_id: arrangements[0] });
    await agree();
    expect((await completeWork(ctx, byHand.id)).status).toBe('done');
    await agree();
    await closeWork(ctx, c!, { note: 'Not needed.' });
    await agree();
    await reopenWork(ctx, c!);
    await reopenWork(ctx, byHand.id);
    await agree();
  });

  it('any sequence of inserts, edits and status moves keeps them equal', async () => {
    const statuses = ['open', 'in_progress', 'waiting', 'done', 'closed'] as const;
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        status: fc.constantFrom(...statuses),
        cls: fc.constantFrom(null, 'chase', 'file'),
        arrangement: fc.constantFrom(null, 0, 1),
        due: fc.constantFrom(null, '2026-11-01', '2026-12-01'),
      }),
      fc.record({
        kind: fc.constant('edit' as const),
        pick: fc.nat(),
        cls: fc.option(fc.constantFrom(null, 'chase', 'sign')),
        arrangement: fc.option(fc.constantFrom(null, 0, 2)),
        due: fc.option(fc.constantFrom(null, '2026-10-01', '2026-12-01')),
        waiting: fc.option(fc.constantFrom(null, 'Sam')),
      }),
      fc.record({
        kind: fc.constant('move' as const),
        pick: fc.nat(),
        to: fc.constantFrom(...statuses),
        waiting: fc.option(fc.constantFrom(null, 'Sam')),
        due: fc.option(fc.constantFrom(null, '2026-10-01')),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const deskId = ctx.desk.id;
        for (const o of ops) {
          await atomicallyOn(store.db, async (db) => {
            if (o.kind === 'insert') {
              await insertWork(
                db,
                workValues(deskId, {
                  status: o.status,
                  class: o.cls,
                  arrangement_id: o.arrangement === null ? null : arrangements[o.arrangement]!,
                  due_date: o.due,
                }),
              );
              return;
            }
            const rows = await db.selectFrom('work').select(['id', 'status']).where('desk_id', '=', deskId).execute();
            const row = rows[o.pick % rows.length]!;
            // fc.option gives null for "leave it alone"; a field's own null is the inner null.
            const patch: Parameters<typeof updateWork>[3] = { updated_at: TEST_NOW };
            if (o.due !== null) patch.due_date = o.due;
            if (o.waiting !== null) patch.waiting_on = o.waiting;
            if (o.kind === 'edit') {
              if (o.cls !== null) patch.class = o.cls;
              if (o.arrangement !== null)
                patch.arrangement_id = o.arrangement === 0 ? null : arrangements[o.arrangement]!;
              await updateWork(db, deskId, row.id, patch);
            } else {
              await moveWork(db, deskId, row.id, row.status, o.to, patch);
            }
          });
        }
        await agree();
      }),
      { numRuns: 25 },
    );
  });

  it('a move that lost its race changes nothing', async () => {
    const [id] = await rowIds(true);
    const row = await store.db.selectFrom('work').select('status').where('id', '=', id!).executeTakeFirstOrThrow();
    const stale = row.status === 'open' ? 'waiting' : 'open';
    expect(await moveWork(store.db, ctx.desk.id, id!, stale, 'done', { waiting_on: 'Sam' })).toBe(false);
    await agree();
  });

  it('deleting the desk takes its counts with it', async () => {
    const deskId = ctx.desk.id;
    expect((await openByClass(store.db, deskId)).length).toBeGreaterThan(0);
    await deleteDesk(store.db, deskId);
    expect(await openByClass(store.db, deskId)).toEqual([]);
    expect(await openByArrangement(store.db, deskId, ctx.today())).toEqual([]);
  });
});
