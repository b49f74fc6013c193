import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { addEvent } from '../../store/repositories/events.ts';
import { badRequest } from '../errors.ts';
import { isPermissionClass, PERMISSION_CLASSES, UNGRANTABLE } from '../vocab.ts';
import { addGrant, removeGrant } from '../../store/repositories/desks.ts';
import { echoed } from '../text.ts';

/** Why a class can never be granted, in words; null for a class the owner may grant. */
export function ungrantableReason(cls: string): string | null {
  if (!(UNGRANTABLE as readonly string[]).includes(cls)) return null;
  return `${cls === 'money' ? 'paying money' : 'signing'} always needs a person`;
}

const GRANTABLE = PERMISSION_CLASSES.filter((c) => ungrantableReason(c) === null);

/** Refuses anything the owner may not grant, with the reason. */
export function checkGrantable(cls: string): void {
  if (!isPermissionClass(cls))
    throw badRequest(
      `"${echoed(cls)}" is not a permission class; the desk may be granted ${GRANTABLE.slice(0, -1).join(', ')} or ${GRANTABLE.at(-1)} (${UNGRANTABLE.join(' and ')} always need a person).`,
    );
  const why = ungrantableReason(cls);
  if (why) throw badRequest(`"${cls}" cannot be granted: ${why}.`);
}

export async function setGrant(
  db: Kysely<Database>,
  input: { deskId: string; cls: string; granted: boolean; now: string; by: string },
): Promise<boolean> {
  // A class that is never granted has nothing to withdraw: unsetting it changes nothing.
  if (!input.granted && isPermissionClass(input.cls) && ungrantableReason(input.cls)) return false;
  checkGrantable(input.cls);
  let changed: boolean;
  if (input.granted) changed = await addGrant(db, input.deskId, input.cls, input.now);
  else changed = await removeGrant(db, input.deskId, input.cls);
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
