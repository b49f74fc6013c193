import type { DeskContext } from '../../domain/context.ts';
import { listSections, type SectionDraft } from '../../domain/desks/sections.ts';
import { unitTypes, workKinds } from './facts.ts';
import { capitalise, listWords, sameWord, words } from './words.ts';

// "Add a block for ...": the block is chosen from the words. Work kinds the desk already
// has make a work block collecting them; a unit type makes a units block; money or date
// words make those blocks; anything else becomes a work block for a new kind named after it.

const MONEY =
  /\b(?:money|cash|costs?|spend\w*|bills?|billing|payments?|pay|paid|owe|owing|owed|debts?|budget\w*|fees?|prices?|domains?)\b/;
const DATES = /\b(?:dates?|deadlines?|renewals?|renew\w*|expir\w*|calendar|anniversar\w*|diary|schedule)\b/;

function has(said: readonly string[], name: string): boolean {
  const parts = words(name.replace(/_/g, ' '));
  return parts.length > 0 && parts.every((p) => said.some((w) => sameWord(w, p)));
}

function title(subject: string): string {
  const t = subject.replace(/^(?:the|our|my|all|any|every)\s+/i, '').trim();
  return capitalise(Array.from(t).slice(0, 80).join('').trimEnd());
}

export async function blockFor(ctx: DeskContext, subject: string, question: string): Promise<SectionDraft> {
  const said = words(subject);
  const heading = title(subject);
  const lower = heading.toLowerCase();
  const why = `You asked for it on ${ctx.today()}: "${question}".`;

  const kinds = (await workKinds(ctx)).filter((k) => has(said, k));
  if (kinds.length > 0) {
    return {
      title: heading,
      kind: 'work',
      kinds,
      blurb: `Open ${listWords(kinds.map((k) => k.replace(/_/g, ' ')))} work.`,
      why,
    };
  }
  for (const [type, fields] of await unitTypes(ctx)) {
    if (has(said, type)) {
      // A field another block already explains keeps the owner's own hint.
      const hints = new Map(
        (await listSections(ctx))
          .flatMap((s) => s.fields)
          .filter((f) => f.hint !== '')
          .map((f) => [f.name, f.hint] as const),
      );
      return {
        title: heading,
        kind: 'units',
        unit: type,
        // Otherwise the field's own name, in words: the page labels each field by its hint, and
        // one sentence for every field left their dates and numbers side by side unnamed.
        fields: fields.map((name) => ({ name, hint: hints.get(name) ?? capitalise(name.replace(/_/g, ' ').trim()) })),
        blurb: `Every ${type} the desk keeps.`,
        why,
      };
    }
  }
  if (MONEY.test(lower)) return { title: heading, kind: 'money', blurb: `What ${lower} costs and what is owed.`, why };
  if (DATES.test(lower)) return { title: heading, kind: 'dates', blurb: `The dates for ${lower} the desk keeps.`, why };
  // Cut at whole characters: half of a pair is text neither database keeps, nor an import reads.
  const kind = Array.from(said.join('_')).slice(0, 48).join('') || 'general';
  return { title: heading, kind: 'work', kinds: [kind], blurb: `Work about ${lower}.`, why };
}
