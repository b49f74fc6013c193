// Money is kept as a whole number of the currency's minor unit (the contract's rule): pence for
// GBP, yen for JPY, fils (a thousandth) for KWD. How many digits that is comes from ISO 4217, so
// one stored amount reads the same on the screen, in chat, in a form and to an API client; not
// from Intl, whose digits are what a price is usually shown with (none for HUF or IDR, whose
// minor units are hundredths) and may change with Node's locale data.

/** ISO 4217's currencies whose minor unit is not a hundredth, by the digits it takes. */
const MINOR_DIGITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Digits after the point in the currency's amounts: 2 for GBP, 0 for JPY, 3 for KWD; 2 for a code not known. */
export function minorDigits(currency: string): number {
  return MINOR_DIGITS[currency.trim().toUpperCase()] ?? 2;
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
  // A comma groups thousands and nothing else: "12,34" is a decimal comma, not 1,234, and so is
  // "0,500", whose first group no grouping of thousands begins with.
  if (typed.includes(',') && !/^[1-9]\d{0,2}(,\d{3})+(\.\d*)?$/.test(typed)) return null;
  const t = typed.replace(/,/g, '');
  const digits = minorDigits(currency);
  const shape = digits === 0 ? /^\d+(\.0*)?$/ : new RegExp(`^\\d+(\\.\\d{0,${digits}})?$`);
  if (!shape.test(t)) return null;
  const [whole = '', part = ''] = t.split('.');
  const minor = BigInt(whole) * 10n ** BigInt(digits) + BigInt(digits === 0 ? '0' : part.padEnd(digits, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}
