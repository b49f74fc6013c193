/** An amount kept in cents, as it is typed into the forms: 1,250.50 GBP. */
export function amount(cents: number, currency: string): string {
  const units = (cents / 100).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${units} ${currency}`;
}
