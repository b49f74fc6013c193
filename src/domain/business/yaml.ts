import { dump, loadAll, YAMLException } from 'js-yaml';

// Business files as YAML, with js-yaml's YAML 1.2 core schema: `2026-12-01`, `yes` and `0b11`
// stay text, as in JSON. It builds plain values as it reads, with no document tree in between,
// so a file of 100,000 work items is read in seconds and a few hundred MB rather than half a
// minute and a gigabyte; the screen's Import reads in the server's own process.

/** Aliases (`*name`) a file may use. */
const MAX_ALIASES = 100;

/** What the text reads as, or the first thing wrong with it and where. */
export type YamlRead = { value: unknown } | { fault: string; at?: { line: number; col: number } };

export function readYaml(text: string): YamlRead {
  let docs: unknown[];
  try {
    docs = loadAll(text, { maxAliases: MAX_ALIASES });
  } catch (err) {
    if (!(err instanceof YAMLException)) throw err;
    const at = err.mark ? { line: err.mark.line + 1, col: err.mark.column + 1 } : undefined;
    return { fault: at ? `${err.reason} at line ${at.line}, column ${at.col}.` : `${err.reason}.`, at };
  }
  if (docs.length > 1) {
    const line = secondDocumentLine(text);
    const said = `it holds ${docs.length} documents (split by ---); a business file is one`;
    return line === undefined
      ? { fault: `${said}.` }
      : { fault: `${said}. The second starts at line ${line}.`, at: { line, col: 1 } };
  }
  const value = docs[0] ?? null;
  const expansion = expandedFault(value, Math.max(4 * text.length, 100_000));
  return expansion ? { fault: expansion } : { value };
}

/**
 * The line the second document starts on: its `---`, or what follows a `...`. YAML allows
 * neither marker at the start of a line inside a value, so a line that begins with one is one.
 */
function secondDocumentLine(text: string): number | undefined {
  let begun = false;
  let ended = false;
  for (const [i, line] of text.split(/\r\n|\r|\n/).entries()) {
    if (/^---(?:\s|$)/.test(line)) {
      if (begun || ended) return i + 1;
      begun = true;
    } else if (/^\.\.\.(?:\s|$)/.test(line)) ended = true;
    else if (!/^\s*(?:#|$)/.test(line)) {
      if (ended) return i + 1;
      begun = true;
    }
  }
  return undefined;
}

/**
 * Why a read value cannot be used as a tree: an alias inside the value it names, or aliases
 * that multiply it past `budget` values (a few lines of nested aliases can stand for billions
 * of values, which writing it to the store or answering with it would have to visit).
 */
function expandedFault(root: unknown, budget: number): string | null {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const size = (v: unknown): number => {
    if (v === null || typeof v !== 'object') return 1;
    const known = sizes.get(v);
    if (known !== undefined) return known;
    if (open.has(v)) throw new Error('an alias inside the value it names');
    open.add(v);
    let n = 1;
    for (const child of Object.values(v)) {
      n += size(child);
      if (n > budget) throw new Error(`its aliases expand it to more than ${budget.toLocaleString('en')} values`);
    }
    open.delete(v);
    sizes.set(v, n);
    return n;
  };
  try {
    size(root);
    return null;
  } catch (err) {
    return `${(err as Error).message}.`;
  }
}

/** A value as YAML: no line folding, and a value used twice written out twice (no anchors). */
export function writeYaml(value: unknown): string {
  return dump(value, { lineWidth: -1, noRefs: true });
}
