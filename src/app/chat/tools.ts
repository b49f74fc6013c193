import { isBlank } from '../../domain/text.ts';
import type { DeskContext } from '../../domain/context.ts';
import { listDomains } from '../../domain/desks/domains.ts';
import { permissionSummary } from '../../domain/desks/permissions.ts';
import { listSections, type SectionDraft } from '../../domain/desks/sections.ts';
import { needsPerson } from '../../domain/work/needs.ts';
import { unitsOf, watchesOf } from '../../store/repositories/desk-reads.ts';
import { grantsOf } from '../../store/repositories/desks.ts';
import { SECTION_KINDS } from '../../domain/vocab.ts';
import {
  arrangements,
  mailConnections,
  horizon,
  mailRecord,
  openWork,
  overdueWork,
  type Tally,
  waitingWork,
  workDetail,
} from './facts.ts';
import type { WorkItem } from '../../domain/work/derive.ts';

// The tools a language model may call. All read the desk through the same verbs as the
// built-in answerer, except add_section, which only collects a block: the chat verb saves
// it once the answer arrives in time.

export const MAX_SECTIONS = 5;
const MAX_ITEMS = 50;

const none = { type: 'object', properties: {}, additionalProperties: false };

/** What a block the model adds may say, and all of it: the model's other fields are dropped. */
const ADD_SECTION_FIELDS = {
  title: { type: 'string' },
  blurb: { type: 'string' },
  kind: { type: 'string', enum: [...SECTION_KINDS] },
  kinds: { type: 'array', items: { type: 'string' } },
  unit: { type: 'string' },
  fields: {
    type: 'array',
    items: {
      type: 'object',
      properties: { name: { type: 'string' }, hint: { type: 'string' } },
      required: ['name'],
    },
  },
  why: { type: 'string' },
};

export const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'list_work',
      description:
        "Open work rows as work items (id, title, status, due_date, days_to_due, overdue, waiting_on, days_waiting, action, permission, allowed). filter: overdue; needs_me (rows whose next step is a person's); waiting (out with somebody); due_within (due in the next `days` days, overdue included); open (everything open).",
      parameters: {
        type: 'object',
        properties: {
          filter: { type: 'string', enum: ['overdue', 'needs_me', 'waiting', 'due_within', 'open'] },
          days: { type: 'integer', minimum: 0, maximum: 365 },
        },
        required: ['filter'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_work',
      description: 'One row on this desk by id, whatever its status, with the arrangement and unit it belongs to.',
      parameters: {
        type: 'object',
        properties: { id: { type: 'integer' } },
        required: ['id'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_arrangements',
      description:
        'Arrangements (leases, contracts...) with start, end and renewal dates, amounts in minor units and contacts.',
      parameters: none,
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_units',
      description:
        'Units (the things the desk is built around) with their recorded fields. type narrows to one unit type.',
      parameters: { type: 'object', properties: { type: { type: 'string' } }, additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_domains',
      description: 'Domains held, and a summary: owing count, owing_amount (minor units, desk currency), next renewal.',
      parameters: none,
    },
  },
  {
    type: 'function',
    function: {
      name: 'mailbox',
      description: 'The mail connections and their status, the last message sent and the last send that failed.',
      parameters: none,
    },
  },
  {
    type: 'function',
    function: {
      name: 'permissions',
      description:
        'Which permission classes the owner granted, and per class how many open rows the desk is doing, asking about, or has out with somebody.',
      parameters: none,
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_watches',
      description: 'Dates the desk watches on units, how far ahead it starts, and the work they turn into.',
      parameters: none,
    },
  },
  {
    type: 'function',
    function: { name: 'list_sections', description: 'The blocks on the desk screen.', parameters: none },
  },
  {
    type: 'function',
    function: {
      name: 'add_section',
      description:
        'Add a block to the desk screen. Only when the owner asks for one. kind: work (kinds: the work kinds it collects), units (unit: the unit type), money or dates.',
      parameters: {
        type: 'object',
        properties: ADD_SECTION_FIELDS,
        required: ['title'],
        additionalProperties: false,
      },
    },
  },
] as const;

function list(t: Tally): { items: WorkItem[]; total: number; shown: number } {
  const items = t.items.slice(0, MAX_ITEMS);
  return { items, total: t.total, shown: items.length };
}

function int(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return {};
  }
}

/** Runs one tool call; anything wrong with the call is told back to the model, not thrown. */
export async function runTool(
  ctx: DeskContext,
  name: string,
  args: Record<string, unknown>,
  sections: SectionDraft[],
): Promise<unknown> {
  switch (name) {
    case 'list_work': {
      switch (args.filter) {
        case 'overdue':
          return list(await overdueWork(ctx));
        case 'needs_me':
          return list(await openWork(ctx, null, needsPerson));
        case 'waiting':
          return list(await waitingWork(ctx));
        case 'due_within':
          return list(await openWork(ctx, horizon(ctx, Math.min(365, Math.max(0, int(args.days) ?? 7)))));
        case 'open':
          return list(await openWork(ctx));
        default:
          return { error: 'filter must be one of overdue, needs_me, waiting, due_within, open.' };
      }
    }
    case 'get_work': {
      const id = int(args.id);
      const found = id === null ? null : await workDetail(ctx, id);
      return found ?? { error: `There is no row ${String(args.id)} on this desk.` };
    }
    case 'list_arrangements':
      return { items: await arrangements(ctx) };
    case 'list_units': {
      const rows = await unitsOf(ctx.db, ctx.desk.id, {
        type: typeof args.type === 'string' ? args.type : undefined,
        limit: 200,
      });
      return { items: rows.map((r) => ({ ...r, fields: parsed(r.fields) })) };
    }
    case 'list_domains':
      return listDomains(ctx);
    case 'mailbox':
      return { connections: await mailConnections(ctx), ...(await mailRecord(ctx)) };
    case 'permissions':
      return { granted: [...(await grantsOf(ctx.db, ctx.desk.id))].sort(), ...(await permissionSummary(ctx)) };
    case 'list_watches':
      return { items: await watchesOf(ctx.db, ctx.desk.id) };
    case 'list_sections':
      return { items: await listSections(ctx) };
    case 'add_section': {
      if (typeof args.title !== 'string' || isBlank(args.title)) return { error: 'A block needs a title.' };
      if (sections.length >= MAX_SECTIONS)
        return { error: `At most ${MAX_SECTIONS} blocks can be added in one answer.` };
      // Only what the tool declares: an id the model makes up is not the block's (P-chat-5 slugs its title).
      const declared = Object.keys(ADD_SECTION_FIELDS);
      sections.push(Object.fromEntries(Object.entries(args).filter(([k]) => declared.includes(k))) as SectionDraft);
      return { ok: true, note: 'The block is saved when you give your answer; say in the answer that it was added.' };
    }
    default:
      return { error: `There is no tool called "${name}".` };
  }
}
