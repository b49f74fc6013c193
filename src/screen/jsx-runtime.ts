import { attributesToString, escapeHtml, isVoidElement } from '@kitajs/html';
import type {} from '@kitajs/html';

// The screen's JSX runtime: @kitajs/html's attribute rendering and element types, with one
// change that matters: text is escaped unless it is markup this runtime made. A title or a
// message body holding <script> is shown as text, and no template has to remember to say so.

/** Markup made by a template; the only thing written into a page unescaped. */
export class Markup {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

/** Trusted markup from outside a template, such as a document's doctype. */
export function raw(html: string): Markup {
  return new Markup(html);
}

// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko and the like) and the marks that
// turn text right to left.
const RIGHT_TO_LEFT =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u200F\u202B\u202E\u2067\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** Elements whose content is text alone, where a tag would be shown or dropped. */
const TEXT_ONLY = new Set(['textarea', 'title', 'option', 'script', 'style']);

/** A Latin letter: the templates' own words, or the owner's text in a script that runs left to right. */
const LATIN = /[A-Za-z]/;

/**
 * Text as a page shows it: escaped, and where it is right-to-left writing with no Latin letter
 * (the owner's name for something, in Arabic or Hebrew), set apart in a <bdi> so that the words
 * and numbers beside it keep their order: an arrangement "إيجار المحل" followed by ": 1,250.50
 * GBP" would otherwise carry the amount to its other side. Text with Latin letters in it, a
 * sentence of the desk's quoting a name above all, flows with the page as it always has: set
 * apart, it would run one way or the other as a whole, and either is wrong for some of it.
 */
function text(child: unknown, isolate: boolean): string {
  if (child === null || child === undefined || child === false || child === true) return '';
  if (child instanceof Markup) return child.html;
  if (Array.isArray(child)) return child.map((c) => text(c, isolate)).join('');
  const raw = String(child);
  const s = escapeHtml(raw);
  return isolate && RIGHT_TO_LEFT.test(raw) && !LATIN.test(raw) ? `<bdi>${s}</bdi>` : s;
}

type Props = Record<string, unknown> & { children?: unknown };

/**
 * Attribute values with `&` written as `&amp;`: @kitajs/html escapes quotes only, and the
 * browser would read `&amp;` in a stored title back as `&`, so a form would send the owner's
 * text changed.
 */
function attributes(attrs: Record<string, unknown>): string {
  for (const [name, v] of Object.entries(attrs)) if (typeof v === 'string') attrs[name] = v.replaceAll('&', '&amp;');
  return attributesToString(attrs);
}

export function jsx(tag: string | ((props: Props) => Markup), props: Props): Markup {
  if (typeof tag === 'function') return tag(props);
  const { children, ...attrs } = props;
  const open = `<${tag}${attributes(attrs)}>`;
  if (isVoidElement(tag)) return new Markup(open);
  return new Markup(`${open}${text(children, !TEXT_ONLY.has(tag))}</${tag}>`);
}

export const jsxs = jsx;
export const jsxDEV = jsx;

export function Fragment(props: { children?: unknown }): Markup {
  return new Markup(text(props.children, true));
}

export namespace JSX {
  export type Element = Markup;
  type Kita = globalThis.JSX.IntrinsicElements;
  export type IntrinsicElements = { [K in keyof Kita]: Omit<Kita[K], 'children' | 'safe'> & { children?: unknown } };
  export interface ElementChildrenAttribute {
    children: unknown;
  }
}
