/**
 * How names and dates are put in order and written, the same in the API's documents (PDFs, ZIP
 * names, e-mails) and in the PWA's screens.
 */

/** Names with numbers in them in natural order ("Class 2" before "Class 10"), case and accents aside. */
const names = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export const compareNames = (a: string, b: string): number => names.compare(a, b);

/** For `sort`: records by their `name`. */
export const byName = <T extends { name: string }>(a: T, b: T): number => names.compare(a.name, b.name);

/** The product's time zone: schools and parents are in Botswana. */
export const TIME_ZONE = 'Africa/Gaborone';

const DATE_STYLES = {
  /** 24 November 2026: documents (packing lists, flyers) and a parent's order history. */
  long: { day: 'numeric', month: 'long', year: 'numeric' },
  /** 24 Nov 2026: lists on staff screens. */
  short: { day: 'numeric', month: 'short', year: 'numeric' },
  /** 24 Nov 2026, 14:05: when exactly an order came in. */
  dateTime: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof DATE_STYLES;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A date in one of the product's styles, in Botswana time unless another zone is asked for. */
export function formatDate(value: Date | string | number, style: DateStyle = 'long', timeZone: string = TIME_ZONE): string {
  const key = `${style}|${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { ...DATE_STYLES[style], timeZone });
    formatters.set(key, formatter);
  }
  return formatter.format(value instanceof Date ? value : new Date(value));
}
