import { sameAnswer } from '../same-answer.ts';
import { grantsOf } from '../../store/repositories/desks.ts';
import type { DeskContext } from '../context.ts';
import { isAllowed } from '../work/derive.ts';
import { PERMISSION_CLASSES, type PermissionClass } from '../vocab.ts';
import { openByClass } from '../../store/repositories/open-counts.ts';

// GET /permissions (D21). Per open row with a class: covered when it is out with somebody
// else (waiting_on set), else doing when the desk may act on it, else asking. Rows with no
// class always ask, and are counted as unclassified.

export interface ClassCounts {
  doing: number;
  asking: number;
  covered: number;
}

export interface PermissionSummary {
  classes: Record<PermissionClass, ClassCounts>;
  unclassified: number;
  needs_you: number;
  with_desk: number;
}

/** One group of open rows: their class, whether they are out with somebody, how many. */
export interface OpenGroup {
  cls: string | null;
  out: boolean;
  n: number;
}

export function summarisePermissions(groups: readonly OpenGroup[], grants: ReadonlySet<string>): PermissionSummary {
  const classes = Object.fromEntries(PERMISSION_CLASSES.map((c) => [c, { doing: 0, asking: 0, covered: 0 }])) as Record<
    PermissionClass,
    ClassCounts
  >;
  let unclassified = 0;
  for (const g of groups) {
    const counts = g.cls === null ? undefined : classes[g.cls as PermissionClass];
    if (!counts) {
      // A class outside the six cannot be stored, but if one were it would be work nobody covers.
      unclassified += g.n;
      continue;
    }
    if (g.out) counts.covered += g.n;
    else if (isAllowed(g.cls, grants)) counts.doing += g.n;
    else counts.asking += g.n;
  }
  const all = Object.values(classes);
  const asking = all.reduce((s, c) => s + c.asking, 0);
  const doing = all.reduce((s, c) => s + c.doing, 0);
  return { classes, unclassified, needs_you: asking + unclassified, with_desk: doing };
}

export async function permissionSummary(ctx: DeskContext): Promise<PermissionSummary> {
  return sameAnswer(ctx, 'permissions', null, async () => {
    const rows = await openByClass(ctx.db, ctx.desk.id);
    const grants = await grantsOf(ctx.db, ctx.desk.id);
    return summarisePermissions(
      rows.map((r) => ({ cls: r.class, out: r.out === 1, n: r.n })),
      grants,
    );
  });
}
