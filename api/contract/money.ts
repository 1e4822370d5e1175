import { CURRENCY_PREFIX } from './constants';

/** Integer thebe to the API's decimal string: 2500 -> "25.00". */
export function thebeToDecimal(thebe: number): string {
  if (!Number.isSafeInteger(thebe)) throw new RangeError(`Not an integer amount of thebe: ${thebe}`);
  const sign = thebe < 0 ? '-' : '';
  const abs = Math.abs(thebe);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const DECIMAL = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * A price as typed or sent ("25", "25.5", "25.50", 25.5) to integer thebe, or null when it is not a
 * non-negative amount with at most two decimals.
 */
export function decimalToThebe(value: string | number): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(2) : '') : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + cents;
}

/** Display form: P25.00 */
export function formatPula(amount: number | string, unit: 'thebe' | 'decimal' = 'decimal'): string {
  const thebe = unit === 'thebe' ? Number(amount) : decimalToThebe(String(amount));
  return `${CURRENCY_PREFIX}${thebeToDecimal(thebe ?? 0)}`;
}
