import { actorName, type DeskContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { logEvent } from '../record.ts';
import { atomically } from '../../store/tx.ts';
import { connectionById, dropConnection } from '../../store/repositories/connections.ts';
import { findArrangement, findUnit } from '../../store/repositories/rows.ts';
import { arrangementTies, deleteSetupRow, findWatch } from '../../store/repositories/setup.ts';

// The owner removes a connection, an arrangement, a unit or a watch. What pointed at it keeps
// going without it: work rows and units lose the link (the schema's ON DELETE SET NULL), a
// playbook loses its sign-in; an arrangement's notes go with it.

export const REMOVABLE = ['connection', 'arrangement', 'unit', 'watch'] as const;
export type Removable = (typeof REMOVABLE)[number];

const TABLE = { arrangement: 'arrangements', unit: 'units', watch: 'watches' } as const;

/** What the owner is about to remove, by the name it goes by, or not found. */
export async function removableName(ctx: DeskContext, kind: Removable, id: number): Promise<string> {
  const db = ctx.db;
  const deskId = ctx.desk.id;
  let name: string | undefined;
  if (kind === 'connection') name = (await connectionById(db, deskId, id))?.name;
  else if (kind === 'arrangement') name = (await findArrangement(db, deskId, id))?.name;
  else if (kind === 'unit') name = (await findUnit(db, deskId, id))?.name;
  else name = (await findWatch(db, deskId, id))?.label;
  if (name === undefined) throw notFound(kind, id);
  return name;
}

export async function removeEntry(ctx: DeskContext, kind: Removable, id: number): Promise<{ name: string }> {
  return atomically(ctx, async (tx) => {
    const name = await removableName(tx, kind, id);
    if (kind === 'connection') await dropConnection(tx.db, tx.desk.id, id);
    else await deleteSetupRow(tx.db, TABLE[kind], tx.desk.id, id);
    const who = actorName(tx.actor);
    await logEvent(tx, `${kind}_removed`, `${who} removed the ${kind} "${name}".`, { [`${kind}_id`]: id, by: who });
    return { name };
  });
}

/** What removing an arrangement takes with it (its notes) and leaves without it (rows, units). */
export async function tiedToArrangement(
  ctx: DeskContext,
  id: number,
): Promise<{ notes: number; rows: number; units: number }> {
  return arrangementTies(ctx.db, ctx.desk.id, id);
}
