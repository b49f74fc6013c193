import { sameAnswer } from '../same-answer.ts';
import { byBytes } from '../text.ts';
import type { DeskContext } from '../context.ts';
import { connectionsOf } from '../../store/repositories/connections.ts';
import { readPositions } from '../../store/repositories/mail.ts';

// GET /connections: what the desk is wired into, problems first, then connected, then
// pending (contract). Secrets never leave the store (D23): the config column is not read.

export interface Connection {
  id: number;
  provider: string;
  name: string;
  category: string;
  auth_type: string;
  status: string;
  connected: boolean;
  /** Why the connection is in `error`, in words; null otherwise. */
  reason: string | null;
}

/** 0 for anything that needs a look (error, expired, any status the desk decided), 1 connected, 2 pending. */
export function connectionRank(status: string): number {
  if (status === 'connected') return 1;
  if (status === 'pending') return 2;
  return 0;
}

export function orderConnections<T extends { status: string; name: string; id: number }>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) => connectionRank(a.status) - connectionRank(b.status) || byBytes(a.name, b.name) || a.id - b.id,
  );
}

export async function listConnections(ctx: DeskContext): Promise<{ items: Connection[] }> {
  return sameAnswer(ctx, 'connections', null, async () => {
    const rows = await connectionsOf(ctx.db, ctx.desk.id);
    // A mailbox the last pass could not read is in `error` with the server's words (P-mail-5).
    const faults = new Map((await readPositions(ctx.db, ctx.desk.id)).map((p) => [p.connection_id, p.error]));
    const shown = rows.map((r) => {
      const fault = faults.get(r.id) ?? null;
      return fault ? { ...r, status: 'error', reason: fault } : { ...r, reason: null };
    });
    return { items: orderConnections(shown).map((r) => ({ ...r, connected: r.status === 'connected' })) };
  });
}
