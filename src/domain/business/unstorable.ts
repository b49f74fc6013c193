import { unstorableIn } from '../text.ts';
import { entryName, type FileErrors, isObject, type Place, placeOf, type Raw } from './fields.ts';

// Text neither database can keep as given (a NUL character, a lone UTF-16 surrogate) is refused
// wherever it sits in the file, a value or a field's name, as a request body's is (P-bodies-1,
// P-bodies-3): otherwise SQLite keeps bytes that read back as other text and PostgreSQL refuses
// the whole import without saying where.

const SAID = {
  nul: 'holds a NUL character (\\u0000), which the desk cannot store',
  surrogate:
    'holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape with no partner), which is not text the desk can store',
} as const;

/** Adds an error for each value or field name in the file that cannot be stored, said where it is. */
export function refuseUnstorable(doc: Raw, errors: FileErrors): void {
  for (const [section, v] of Object.entries(doc)) {
    const top = placeOf(doc, section);
    if (unstorableIn(section))
      errors.add('the file', `a section's name ${SAID[unstorableIn(section)!]}`, undefined, [top]);
    else if (Array.isArray(v)) {
      for (const [i, raw] of v.entries()) within(raw, entryName(section, i, raw), '', [top, i], errors);
    } else within(v, section, '', [top], errors);
  }
}

function within(v: unknown, where: string, path: string, at: Place, errors: FileErrors): void {
  const here = path ? `${where}.${path}` : where;
  if (typeof v === 'string') {
    const bad = unstorableIn(v);
    if (bad) errors.add(here, SAID[bad], path.split(/[.[]/)[0], at);
  } else if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) within(x, where, `${path}[${i}]`, at, errors);
  } else if (isObject(v))
    for (const [k, x] of Object.entries(v)) {
      const place = path ? at : [...at, placeOf(v as Raw, k)];
      const bad = unstorableIn(k);
      // The name itself is not repeated: it holds what cannot be shown.
      if (bad) errors.add(here, `a field's name ${SAID[bad]}`, undefined, place);
      else within(x, where, path ? `${path}.${k}` : k, place, errors);
    }
}
