/**
 * The season timeline's e-mails (docs/outreach.md, "The season timeline"): "photos are online" and
 * the reminders before ordering closes. Pure functions; each carries the gallery link and the
 * one-click unsubscribe link (docs/outreach.md, "Unsubscribe in one click").
 */
import { SEASON_MSG } from '../../contract/messages';
import { button, escapeHtml, layout, safeHref } from './html';
import type { EmailContent } from './templates';

const dayWords = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A closing date (a Botswana calendar day, YYYY-MM-DD) in words: "Friday, 11 December 2026". */
export function closingDateWords(date: string): string {
  // A calendar day, not an instant: read at noon UTC and written in UTC, so it is the day that was set.
  return dayWords.format(new Date(`${date}T12:00:00Z`));
}

interface SeasonEmailInput {
  businessName: string;
  schoolName: string;
  /** The child the recipient follows (or the class list names), when known. */
  studentName: string | null;
  closingDate: string | null;
  galleryUrl: string;
  unsubscribeUrl: string;
}

function compose(input: SeasonEmailInput, subject: string, paragraphs: string[]): EmailContent {
  const text = [
    SEASON_MSG.greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    SEASON_MSG.galleryLinkText,
    input.galleryUrl,
    '',
    input.businessName,
    '',
    '--',
    SEASON_MSG.whyYouGetThis,
    `${SEASON_MSG.unsubscribe} ${input.unsubscribeUrl}`,
  ].join('\n');
  const html = layout(
    input.businessName,
    subject,
    `<p>${escapeHtml(SEASON_MSG.greeting)}</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${button(input.galleryUrl, SEASON_MSG.openGallery)}
<p>${escapeHtml(SEASON_MSG.galleryLinkText)}<br><a href="${safeHref(input.galleryUrl)}">${escapeHtml(input.galleryUrl)}</a></p>
<hr style="border:none;border-top:1px solid #dde2e7;margin:24px 0 12px">
<p style="font-size:12px;color:#5b6570">${escapeHtml(SEASON_MSG.whyYouGetThis)} <a href="${safeHref(input.unsubscribeUrl)}">${escapeHtml(SEASON_MSG.unsubscribeLink)}</a></p>`,
  );
  return { subject, text, html };
}

export function photosOnlineEmail(input: SeasonEmailInput & { className: string | null }): EmailContent {
  return compose(input, SEASON_MSG.photosOnlineSubject(input.schoolName), [
    SEASON_MSG.photosOnlineIntro(input.schoolName, input.className),
    input.studentName ? SEASON_MSG.photosOnlineChild(input.studentName) : SEASON_MSG.photosOnlineNoChild,
    input.closingDate ? SEASON_MSG.closingOn(closingDateWords(input.closingDate)) : SEASON_MSG.noClosingDate,
  ]);
}

export function closingReminderEmail(input: SeasonEmailInput & { closingDate: string; days: number }): EmailContent {
  return compose(input, SEASON_MSG.closingSubject(input.schoolName, input.days), [
    SEASON_MSG.closingIntro(input.schoolName, closingDateWords(input.closingDate)),
    input.studentName ? SEASON_MSG.closingChild(input.studentName) : SEASON_MSG.closingNoChild,
    SEASON_MSG.closingAfter,
  ]);
}
