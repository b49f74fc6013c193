// Money is kept as a whole number of the currency's minor unit (the contract's rule): pence for
// GBP, yen for JPY, fils (a thousandth) for KWD. How many digits that is comes from the currency
// itself, so one stored amount reads the same on the screen, in chat and in a form.

/** Digits after the point in the currency's amounts: 2 for GBP, 0 for JPY, 3 for KWD; 2 for a code not known. */
export function minorDigits(currency: string): number {
  try {
    const f = new Intl.NumberFormat('en', { style: 'currency', currency: currency.trim() || 'XXX' });
    return f.resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units as the decimal they stand for, exactly (no float on the way): 9007199254740991 GBP is "90071992547409.91". */
export function decimalOf(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** An amount as a person reads it, grouped, with the currency's own digits: "1,250.50 GBP", "1,500 JPY". */
export function amountWords(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const f = new Intl.NumberFormat('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  // Formatted from its decimal text: Intl reads a string exactly, where a number past 2^53 / 100 is rounded.
  return `${f.format(decimalOf(minor, currency) as Intl.StringNumericLiteral)} ${currency}`.trimEnd();
}

/**
 * What the owner typed ("1250", "1,250.5", "1250.00") in the currency's minor units; null when it
 * is not an amount: a decimal comma, more digits after the point than the currency has, or more
 * than a whole number holds exactly.
 */
export function minorOf(text: string, currency: string): number | null {
  const typed = text.trim();
  // A comma groups thousands and nothing else: "12,34" is a decimal comma, not 1,234.
  if (typed.includes(',') && !/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(typed)) return null;
  const t = typed.replace(/,/g, '');
  const digits = minorDigits(currency);
  const shape = digits === 0 ? /^\d+(\.0*)?$/ : new RegExp(`^\\d+(\\.\\d{0,${digits}})?$`);
  if (!shape.test(t)) return null;
  const [whole = '', part = ''] = t.split('.');
  const minor = BigInt(whole) * 10n ** BigInt(digits) + BigInt(digits === 0 ? '0' : part.padEnd(digits, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}
