import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { addEvent } from '../../store/repositories/events.ts';
import { badRequest } from '../errors.ts';
import { isPermissionClass, PERMISSION_CLASSES, UNGRANTABLE } from '../vocab.ts';

/** Refuses anything the owner may not grant, with the reason. */
export function checkGrantable(cls: string): void {
  if (!isPermissionClass(cls)) throw badRequest(`"${cls}" is not a permission class; the classes are ${PERMISSION_CLASSES.join(', ')}.`);
  if ((UNGRANTABLE as readonly string[]).includes(cls)) {
    throw badRequest(`"${cls}" cannot be granted: ${cls === 'money' ? 'paying money' : 'signing'} always needs a person.`);
  }
}

export async function setGrant(db: Kysely<Database>, input: { deskId: string; cls: string; granted: boolean; now: string; by: string }): Promise<boolean> {
  checkGrantable(input.cls);
  let changed: boolean;
  if (input.granted) {
    const r = await db
      .insertInto('grants')
      .values({ desk_id: input.deskId, class: input.cls, created_at: input.now })
      .onConflict((oc) => oc.columns(['desk_id', 'class']).doNothing())
      .executeTakeFirst();
    changed = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  } else {
    const r = await db.deleteFrom('grants').where('desk_id', '=', input.deskId).where('class', '=', input.cls).executeTakeFirst();
    changed = Number(r.numDeletedRows) > 0;
  }
  if (changed) {
    await addEvent(db, {
      deskId: input.deskId,
      kind: 'grant_changed',
      message: `${input.granted ? 'Granted' : 'Withdrew'} "${input.cls}" work`,
      data: { class: input.cls, granted: input.granted, by: input.by },
      at: input.now,
    });
  }
  return changed;
}
