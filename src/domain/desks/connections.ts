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
  /** What needs a look, in words (a mailbox the last pass could not read); null otherwise. */
  reason: string | null;
}

/**
 * 0 for anything that needs a look (error, expired, any status the desk decided, or a mailbox
 * the desk could not read, with its reason), 1 connected, 2 pending.
 */
export function connectionRank(c: { status: string; reason?: string | null }): number {
  if (c.reason) return 0;
  if (c.status === 'connected') return 1;
  if (c.status === 'pending') return 2;
  return 0;
}

export function orderConnections<T extends { status: string; reason?: string | null; name: string; id: number }>(
  items: readonly T[],
): T[] {
  return [...items].sort((a, b) => connectionRank(a) - connectionRank(b) || byBytes(a.name, b.name) || a.id - b.id);
}

export async function listConnections(ctx: DeskContext): Promise<{ items: Connection[] }> {
  return sameAnswer(ctx, 'connections', null, async () => {
    const rows = await connectionsOf(ctx.db, ctx.desk.id);
    // A mailbox the last pass could not read says so in the server's words (P-mail-5). Its
    // status stays as it is: the contract's `connected` is whether mail leaves, and it does.
    const faults = new Map((await readPositions(ctx.db, ctx.desk.id)).map((p) => [p.connection_id, p.error]));
    const shown = rows.map((r) => ({ ...r, reason: faults.get(r.id) ?? null }));
    return { items: orderConnections(shown).map((r) => ({ ...r, connected: r.status === 'connected' })) };
  });
}
