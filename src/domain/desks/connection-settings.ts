import type { DeskContext } from '../context.ts';
import { withoutSecrets } from '../secret-settings.ts';
import { connectionsWithConfig } from '../../store/repositories/connections.ts';
import { playbooksOf } from '../../store/repositories/setup.ts';
import { readPositions } from '../../store/repositories/mail.ts';
import { minuteOfInstant } from '../dates.ts';

// The desk's connections as the owner edits them: every setting but the secrets, which are
// only said to be stored or not, and the playbooks that sign in with each.

export interface ConnectionSettings {
  id: number;
  provider: string;
  name: string;
  category: string;
  auth_type: string;
  status: string;
  /** The stored settings with every secret taken out. */
  settings: Record<string, unknown>;
  /** Which secrets hold a value, by path; never the value. */
  stored: string[];
  playbooks: Array<{ id: number; name: string }>;
  /** Why the last pass could not read this mailbox's inbox (P-mail-5); null when it could, or never tried. */
  readFault: string | null;
  /**
   * Why the last send through this mailbox did not reach its server, and when on the desk's clock
   * (P-pass-8); null once a send or a test message got through, or the settings changed.
   */
  sendFault: { reason: string; at: string } | null;
}

/** The settings as the screen shows them, and which secrets are stored. */
function shown(config: Record<string, unknown>): { settings: Record<string, unknown>; stored: string[] } {
  const { kept, dropped } = withoutSecrets(config);
  return { settings: kept, stored: dropped };
}

export async function connectionSettings(ctx: DeskContext): Promise<{
  connections: ConnectionSettings[];
  playbooks: Array<{ id: number; name: string; connection_id: number | null }>;
}> {
  const [rows, playbooks, reads] = await Promise.all([
    connectionsWithConfig(ctx.db, ctx.desk.id),
    playbooksOf(ctx.db, ctx.desk.id),
    readPositions(ctx.db, ctx.desk.id),
  ]);
  const faults = new Map(reads.map((r) => [r.connection_id, r.error]));
  return {
    connections: rows.map((r) => {
      const { config, send_fault, send_fault_at, ...rest } = r;
      return {
        ...rest,
        sendFault: send_fault
          ? { reason: send_fault, at: send_fault_at ? minuteOfInstant(ctx.desk.timezone, send_fault_at) : '' }
          : null,
        ...shown(config),
        playbooks: playbooks.filter((p) => p.connection_id === r.id).map((p) => ({ id: p.id, name: p.name })),
        readFault: faults.get(r.id) ?? null,
      };
    }),
    playbooks,
  };
}
