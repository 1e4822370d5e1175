/**
 * The season's SMS (docs/sms.md, "The season by SMS"): "photos are online", the reminders before
 * closing, the abandoned cart and the unpaid order, each in ONE GSM-7 segment (160 units, no
 * concatenation: Botswana routes do not reliably join parts). Names are written in their closest
 * GSM letters ("Ṱhabo" → "Thabo"); when a long school or child name would make the text longer than
 * one segment, the names are shortened (then left out), never the message's links or words. Pure
 * functions; the links are made by the caller (short links, `{PUBLIC_URL}/s/{token}`).
 */
import { SEASON_SMS_MSG as T } from '../../contract/season-sms-messages';
import { SMS_MAX_UNITS, smsSegments, toGsm7, type SmsSegments } from '../../contract/sms-text';
import { formatPula } from '../../contract/money';

export interface SmsContent extends SmsSegments {
  text: string;
}

/** A name is never cut shorter than this before it is left out. */
const MIN_NAME = 6;

const shortDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A closing date (a Botswana calendar day, YYYY-MM-DD) in few letters: "Fri 11 Dec". */
export function closingDateShort(date: string): string {
  return shortDay.format(new Date(`${date}T12:00:00Z`)).replace(/,/g, '');
}

const clean = (name: string | null | undefined): string | null => {
  const gsm = toGsm7(name ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return gsm === '' ? null : gsm;
};

/** `name` cut by `by` characters, ending with "." to show it was cut (never below MIN_NAME letters). */
function cut(name: string, by: number): string {
  const keep = Math.max(MIN_NAME, name.length - by - 1);
  return `${name.slice(0, keep).trimEnd()}.`;
}

const measure = (text: string): SmsContent => ({ text, ...smsSegments(text) });

/**
 * Renders with the names, shortening them until the text fits one segment: the longer name first,
 * then the other (each to MIN_NAME letters), then the child's name left out, then the school's. What still does not fit (an absurdly long PUBLIC_URL) is answered as it is: the preview
 * shows its segments.
 */
function fit(render: (school: string | null, child: string | null) => string, schoolName: string | null, childName: string | null): SmsContent {
  let school = clean(schoolName);
  let child = clean(childName);
  for (let guard = 0; guard < 50; guard++) {
    const content = measure(toGsm7(render(school, child)));
    const over = content.units - SMS_MAX_UNITS;
    if (content.encoding === 'GSM-7' && over <= 0) return content;
    const cuttable = (name: string | null): name is string => name !== null && name.length > MIN_NAME + 1;
    if (cuttable(child) && cuttable(school)) {
      // Both give way: what is left is shared, the shorter name keeping its length when under half.
      const left = Math.max(2 * (MIN_NAME + 1), child.length + school.length - over);
      const half = Math.floor(left / 2);
      const childKeeps = child.length <= half ? child.length : school.length <= half ? left - school.length : half;
      const schoolKeeps = left - childKeeps;
      if (child.length > childKeeps) child = cut(child, child.length - childKeeps);
      if (school.length > schoolKeeps) school = cut(school, school.length - schoolKeeps);
    } else if (cuttable(child)) child = cut(child, over);
    else if (cuttable(school)) school = cut(school, over);
    else if (child !== null) child = null;
    else if (school !== null) school = null;
    else return content;
  }
  return measure(toGsm7(render(school, child)));
}

const withStop = (body: string, stopUrl: string) => `${body}\n${T.stop(stopUrl)}`;

export interface SeasonSmsInput {
  schoolName: string;
  /** The child (or children, "A and B") the guardian follows, when known. */
  studentName: string | null;
  closingDate: string | null;
  /** Short link to the school's gallery. */
  link: string;
  /** Short link to the opt-out page. */
  stopUrl: string;
}

export function photosOnlineSms(input: SeasonSmsInput): SmsContent {
  const tail = input.closingDate ? ` ${T.orderBy(closingDateShort(input.closingDate))}` : '';
  return fit(
    (school, child) =>
      withStop(`${child ? T.photosOnlineChild(child, school ?? '', input.link).replace(' ()', '') : school ? T.photosOnlineSchool(school, input.link) : T.photosOnline(input.link)}${tail}`, input.stopUrl),
    input.schoolName,
    input.studentName,
  );
}

export function closingReminderSms(input: SeasonSmsInput & { closingDate: string }): SmsContent {
  const date = closingDateShort(input.closingDate);
  return fit(
    (school, child) =>
      withStop(child ? T.closingChild(child, school ?? '', date, input.link).replace(' ()', '') : school ? T.closingSchool(school, date, input.link) : T.closing(date, input.link), input.stopUrl),
    input.schoolName,
    input.studentName,
  );
}

export function abandonedCartSms(input: { schoolName: string | null; link: string; stopUrl: string }): SmsContent {
  return fit((school) => withStop(school ? T.cart(school, input.link) : T.cartNoSchool(input.link), input.stopUrl), input.schoolName, null);
}

export function unpaidOrderSms(input: { orderId: string; schoolName: string | null; totalThebe: number; link: string; stopUrl: string }): SmsContent {
  const total = formatPula(input.totalThebe, 'thebe');
  return fit(
    (school) => withStop(school ? T.unpaid(input.orderId, school, total, input.link) : T.unpaidNoSchool(input.orderId, total, input.link), input.stopUrl),
    input.schoolName,
    null,
  );
}
