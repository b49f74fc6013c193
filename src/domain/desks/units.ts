import { sameAnswer } from '../same-answer.ts';
import type { DeskContext } from '../context.ts';
import { filterText } from '../input.ts';
import { storedObject } from '../text.ts';
import { unitsOf } from '../../store/repositories/desk-reads.ts';

// GET /units (D5): the things the desk is built around, in the desk's own order. `type`
// narrows to one kind of unit; an unknown type gives an empty list.

export type UnitValue = string | number | null;

export interface Unit {
  id: number;
  type: string;
  name: string;
  fields: Record<string, UnitValue>;
  arrangement_id: number | null;
}

/** The business's own columns; anything that is not a string, number or null is left out. */
export function unitFields(text: string): Record<string, UnitValue> {
  // Without a prototype, a field may be named anything (`__proto__`, `constructor`) and is only itself.
  const out: Record<string, UnitValue> = Object.create(null);
  for (const [k, x] of Object.entries(storedObject(text))) {
    if (x === null || typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x))) out[k] = x;
  }
  return out;
}

export async function listUnits(ctx: DeskContext, query: { type?: unknown } = {}): Promise<{ items: Unit[] }> {
  return sameAnswer(ctx, 'units', query.type ?? null, async () => {
    let type: string | undefined;
    if (query.type !== undefined) {
      const t = filterText(query.type);
      if (t === null) return { items: [] };
      type = t;
    }
    const rows = await unitsOf(ctx.db, ctx.desk.id, { type });
    return { items: rows.map((r) => ({ ...r, fields: unitFields(r.fields) })) };
  });
}
