import { amountWords } from '../../domain/money.ts';

/** An amount kept in the currency's minor units, as it is typed into the forms: 1,250.50 GBP, 1,500 JPY. */
export function amount(minor: number, currency: string): string {
  return amountWords(minor, currency);
}
