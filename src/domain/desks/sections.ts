import { sameAnswer } from '../same-answer.ts';
import type { SectionRow } from '../../store/schema.ts';
import type { DeskContext, SectionDraft } from '../ports.ts';
import { logEvent } from '../record.ts';
import { SECTION_KINDS, type SectionKind } from '../vocab.ts';
import type { DeskSection } from '../contract/shared.ts';
import {
  deleteSection,
  findSection,
  insertSection,
  sectionSlots,
  sectionsOf,
} from '../../store/repositories/sections.ts';
import { atomically, lockDesk } from '../../store/tx.ts';
import { actorName } from '../context.ts';
import { closeDirections, isBlank, seenText, unstorableIn } from '../text.ts';
import { notFound } from '../errors.ts';
import { openKinds } from '../../store/repositories/queue.ts';

export type { DeskSection } from '../contract/shared.ts';

export type { SectionDraft } from '../ports.ts';

// Desk sections: the blocks of the screen that GET /desk serves in `position` order. Chat is
// the only door that adds one through the API; it saves here, at the next position, with an
// id unique on the desk.

const TITLE_MAX = 80;
/** The most blocks a desk page holds, its own and those added from chat. */
export const SECTIONS_MAX = 40;
const TEXT_MAX = 500;
/** The most kinds a work block collects, and fields a units block explains: the page draws them all. */
export const BLOCK_KINDS_MAX = 50;
export const BLOCK_FIELDS_MAX = 50;

function text(v: unknown, max = TEXT_MAX): string {
  return typeof v === 'string' ? closeDirections(Array.from(v.replace(/\s+/g, ' ').trim()).slice(0, max).join('')) : '';
}

/** Text a person can see, or nothing: a title of zero-width characters is no title (P-chat-11). */
const seen = (t: string) => (isBlank(t) ? '' : t);

function jsonArray(s: string): unknown[] {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function sectionOf(row: SectionRow): DeskSection {
  const kind = (SECTION_KINDS as readonly string[]).includes(row.kind) ? (row.kind as SectionKind) : 'work';
  return {
    id: row.id,
    title: row.title,
    blurb: row.blurb,
    kind,
    // A block's kinds and unit only mean something on a work block and a units block.
    kinds: kind === 'work' ? jsonArray(row.kinds).filter((k): k is string => typeof k === 'string') : [],
    unit: kind === 'units' ? row.unit : null,
    fields: jsonArray(row.fields)
      .filter(
        (f): f is { name: string; hint?: unknown } =>
          !!f && typeof f === 'object' && typeof (f as { name?: unknown }).name === 'string',
      )
      .map((f) => ({ name: f.name, hint: typeof f.hint === 'string' ? f.hint : '' })),
    why: row.why,
  };
}

export async function listSections(ctx: DeskContext): Promise<DeskSection[]> {
  const rows = await sectionsOf(ctx.db, ctx.desk.id);
  return rows.map(sectionOf);
}

/**
 * GET /desk: the blocks of the screen, in the desk's order, and after them a block of the open
 * rows' kinds that none of the desk's work blocks collects (a row added with the default kind,
 * or a business file's row of a kind its sections leave out), so that the kinds of /desk are
 * every kind a /work filter can find (P-reads-8).
 */
export async function deskSections(ctx: DeskContext): Promise<{ sections: DeskSection[] }> {
  return sameAnswer(ctx, 'sections', null, async () => {
    const [stored, open] = await Promise.all([listSections(ctx), openKinds(ctx.db, ctx.desk.id)]);
    return { sections: withOtherKinds(stored, open) };
  });
}

/** The stored blocks, and after them the block of open kinds none of them collects, if any. */
export function withOtherKinds(stored: readonly DeskSection[], open: readonly string[]): DeskSection[] {
  const other = otherKinds(stored, open);
  return other ? [...stored, other] : [...stored];
}

export const OTHER_KINDS_ID = 'other-kinds';
/** The title of that block, kept for it: a block added under it would read as the same one. */
export const OTHER_KINDS_TITLE = 'Other work';

/** The block of kinds no work block collects, or null when every open row's kind is in one. */
export function otherKinds(stored: readonly DeskSection[], open: readonly string[]): DeskSection | null {
  const collected = new Set(stored.flatMap((s) => s.kinds));
  const kinds = open.filter((k) => !collected.has(k));
  if (kinds.length === 0) return null;
  const taken = new Set(stored.map((s) => s.id));
  let id = OTHER_KINDS_ID;
  for (let n = 2; taken.has(id); n++) id = `${OTHER_KINDS_ID}-${n}`;
  return {
    id,
    title: OTHER_KINDS_TITLE,
    blurb: 'Open rows of kinds no other block collects.',
    kind: 'work',
    kinds,
    unit: null,
    fields: [],
    why: 'Every kind of open row is listed in a block, so each can be found.',
  };
}

/** A lower-case anchor: letters, digits and dashes. */
export function slugify(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
}

/** A draft made whole: a kind from the four, kinds only on work blocks, a unit only on units blocks. */
export function completeSection(draft: SectionDraft): Omit<DeskSection, 'id'> & { slug: string } {
  const kinds = [
    ...new Set((Array.isArray(draft.kinds) ? draft.kinds : []).map((k) => text(k, TITLE_MAX)).filter((k) => k !== '')),
  ].slice(0, BLOCK_KINDS_MAX);
  const unit = text(draft.unit, TITLE_MAX) || null;
  const kind: SectionKind = (SECTION_KINDS as readonly string[]).includes(draft.kind ?? '')
    ? (draft.kind as SectionKind)
    : kinds.length > 0
      ? 'work'
      : unit
        ? 'units'
        : 'work';
  const title = seen(text(draft.title, TITLE_MAX)) || seen(text(draft.id, TITLE_MAX)) || 'New block';
  const fields = (Array.isArray(draft.fields) ? draft.fields : [])
    .filter((f) => f && typeof f === 'object')
    .map((f) => ({ name: text(f.name, TITLE_MAX), hint: text(f.hint) }))
    .filter((f) => f.name !== '')
    .slice(0, BLOCK_FIELDS_MAX);
  return {
    slug: slugify(text(draft.id, TITLE_MAX) || title) || 'block',
    title,
    blurb: text(draft.blurb) || title,
    kind,
    kinds: kind === 'work' ? kinds : [],
    unit: kind === 'units' ? unit : null,
    fields,
    why: text(draft.why) || 'Added from chat.',
  };
}

/** A block's title as a reader tells two apart: case, accents' forms and spacing aside. */
export function titleKey(title: string): string {
  // Characters that draw nothing are left out too: "Other\u200b work" reads as "Other work".
  return seenText(title).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The title of the desk's block that reads as `title`, if it has one (P-chat-16). */
export async function sameTitled(ctx: DeskContext, title: string): Promise<string | null> {
  const key = titleKey(title);
  if (key === titleKey(OTHER_KINDS_TITLE)) return OTHER_KINDS_TITLE;
  return (await listSections(ctx)).find((s) => titleKey(s.title) === key)?.title ?? null;
}

export interface SectionsAdded {
  added: DeskSection[];
  /** Titles asked for that a block of the desk already has; none of them was added again. */
  already: string[];
  /** How many were left out because the page was full. */
  over_cap: number;
}

/**
 * Saves blocks after the desk's own, each under an id unique on the desk (`invoices`,
 * `invoices-2`, ...), and logs section_added for each. A block titled as one already there is
 * not added again (P-chat-16). Run it inside the caller's transaction; a racing chat that takes
 * the same id makes the insert fail, and the caller tries again.
 */
export async function addSections(ctx: DeskContext, asked: readonly SectionDraft[]): Promise<SectionsAdded> {
  const out: SectionsAdded = { added: [], already: [], over_cap: 0 };
  if (asked.length === 0) return out;
  // Chats adding at once take their turns here, so that each sees the blocks the others saved:
  // the page's cap holds, and no two pick the same free id or title.
  await lockDesk(ctx);
  const existing = await sectionSlots(ctx.db, ctx.desk.id);
  const titles = new Map(existing.map((s) => [titleKey(s.title), s.title]));
  titles.set(titleKey(OTHER_KINDS_TITLE), OTHER_KINDS_TITLE);
  const taken = new Set(existing.map((s) => s.id));
  let position = existing.reduce((max, s) => Math.max(max, s.position), -1);
  const added = out.added;
  for (const draft of asked) {
    const { slug, ...section } = completeSection(draft);
    const there = titles.get(titleKey(section.title));
    if (there !== undefined) {
      if (!out.already.includes(there)) out.already.push(there);
      continue;
    }
    // The desk page draws every block: past the cap, one asked for is not added.
    if (existing.length + added.length >= SECTIONS_MAX) {
      out.over_cap += 1;
      continue;
    }
    titles.set(titleKey(section.title), section.title);
    let id = slug;
    for (let n = 2; taken.has(id); n++) id = `${slug}-${n}`;
    taken.add(id);
    position += 1;
    await insertSection(ctx.db, {
      desk_id: ctx.desk.id,
      id,
      position,
      title: section.title,
      blurb: section.blurb,
      kind: section.kind,
      kinds: JSON.stringify(section.kinds),
      unit: section.unit,
      fields: JSON.stringify(section.fields),
      why: section.why,
      created_at: ctx.now(),
    });
    const saved: DeskSection = { id, ...section };
    await logEvent(ctx, 'section_added', `Added the block "${saved.title}" to the desk.`, {
      section_id: id,
      title: saved.title,
      kind: saved.kind,
      kinds: saved.kinds,
      unit: saved.unit,
    });
    added.push(saved);
  }
  return out;
}

/** A block the desk keeps, by its title, or not found. */
export async function sectionTitle(ctx: DeskContext, id: string): Promise<string> {
  // An id holding what no stored id can (a NUL, which PostgreSQL's text refuses) names nothing.
  const row = unstorableIn(id) ? undefined : await findSection(ctx.db, ctx.desk.id, id);
  if (!row) throw notFound('block', id);
  return row.title;
}

/**
 * The owner takes a block off the desk page, one of the business file's or one a chat added: the
 * rows it collected stay as they are, and the page holds room for another.
 */
export async function removeSection(ctx: DeskContext, id: string): Promise<{ title: string }> {
  return atomically(ctx, async (tx) => {
    const title = await sectionTitle(tx, id);
    await deleteSection(tx.db, tx.desk.id, id);
    const who = actorName(tx.actor);
    await logEvent(tx, 'section_removed', `${who} removed the block "${title}" from the desk.`, {
      section_id: id,
      title,
      by: who,
    });
    return { title };
  });
}
