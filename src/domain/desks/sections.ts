import type { DeskContext } from '../context.ts';
import type { SectionKind } from '../vocab.ts';

// GET /desk: the blocks of the screen, in the desk's order. They belong to the business;
// clients read them rather than assume them.

export interface DeskSection {
  id: string;
  title: string;
  blurb: string;
  kind: SectionKind;
  kinds: string[];
  unit: string | null;
  fields: Array<{ name: string; hint: string }>;
  why: string;
}

function parseList<T>(text: string, keep: (v: unknown) => v is T): T[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(keep) : [];
  } catch {
    return [];
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isField = (v: unknown): v is { name: string; hint: string } =>
  !!v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string';

export async function deskSections(ctx: DeskContext): Promise<{ sections: DeskSection[] }> {
  const rows = await ctx.db.selectFrom('sections').selectAll().where('desk_id', '=', ctx.desk.id).orderBy('position').orderBy('created_at').execute();
  const sections = rows.map((r) => ({
    id: r.id,
    title: r.title,
    blurb: r.blurb,
    kind: r.kind as SectionKind,
    kinds: r.kind === 'work' ? parseList(r.kinds, isString) : [],
    unit: r.kind === 'units' ? r.unit : null,
    fields: parseList(r.fields, isField).map((f) => ({ name: f.name, hint: typeof f.hint === 'string' ? f.hint : '' })),
    why: r.why,
  }));
  return { sections };
}
