// The part of html-to-text (mailparser's own HTML reader) that parse.ts calls; the package
// ships no types of its own.
declare module 'html-to-text' {
  export function convert(
    html: string,
    options?: {
      limits?: { maxDepth?: number; maxInputLength?: number };
      selectors?: Array<{ selector: string; format: string }>;
      formatters?: Record<
        string,
        (elem: { attribs?: Record<string, string> }, walk: unknown, builder: { addInline(text: string): void }) => void
      >;
    },
  ): string;
}
