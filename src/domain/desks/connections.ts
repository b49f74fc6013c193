import type { DeskContext } from '../context.ts';
import { connectionsOf } from '../../store/repositories/connections.ts';

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
}

/** 0 for anything that needs a look (error, expired, any status the desk decided), 1 connected, 2 pending. */
export function connectionRank(status: string): number {
  if (status === 'connected') return 1;
  if (status === 'pending') return 2;
  return 0;
}

export function orderConnections<T extends { status: string; name: string; id: number }>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) => connectionRank(a.status) - connectionRank(b.status) || a.name.localeCompare(b.name, 'en') || a.id - b.id,
  );
}

export async function listConnections(ctx: DeskContext): Promise<{ items: Connection[] }> {
  const rows = await connectionsOf(ctx.db, ctx.desk.id);
  return { items: orderConnections(rows).map((r) => ({ ...r, connected: r.status === 'connected' })) };
}
