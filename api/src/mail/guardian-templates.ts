/**
 * The guardians' e-mail (docs/outreach.md, "Double opt-in"): the confirmation link, the only message
 * an address gets before it is confirmed. Transactional: the guardian just asked for it, so it
 * carries no unsubscribe link. Pure, like templates.ts.
 */
import { GUARDIAN_CONFIRM_TTL_MS } from '../../contract/outreach';
import { GUARDIAN_MSG } from '../../contract/messages';
import { button, escapeHtml, layout, safeHref } from './html';
import type { EmailContent } from './templates';

export interface ConfirmEmailInput {
  businessName: string;
  confirmUrl: string;
  /** Names of the schools whose children this request follows, and how many children. */
  children: { count: number; schools: string[] };
  /** Names of the schools this request follows as a whole. */
  schools: string[];
  marketing: boolean;
}

const list = (names: string[]): string => (names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/** What the request follows, without naming a child: the address is not proven yet. */
export function followedText(input: Pick<ConfirmEmailInput, 'children' | 'schools'>): string {
  const children = input.children.count > 0 ? GUARDIAN_MSG.followedChildren(input.children.count, list(input.children.schools)) : null;
  const schools = input.schools.length > 0 ? GUARDIAN_MSG.followedSchools(list(input.schools)) : null;
  if (children && schools) return GUARDIAN_MSG.followedBoth(children, schools);
  return children ?? schools ?? '';
}

export function guardianConfirmEmail(input: ConfirmEmailInput): EmailContent {
  const subject = GUARDIAN_MSG.confirmSubject(input.businessName);
  const intro = GUARDIAN_MSG.confirmIntro(input.businessName, followedText(input));
  const validity = GUARDIAN_MSG.confirmValidity(Math.round(GUARDIAN_CONFIRM_TTL_MS / 86_400_000));
  const marketing = input.marketing ? GUARDIAN_MSG.confirmMarketing : null;
  const text = ['Hello,', '', intro, '', input.confirmUrl, '', ...(marketing ? [marketing, ''] : []), validity, '', input.businessName].join('\n');
  const html = layout(
    input.businessName,
    subject,
    `<p>Hello,</p>
<p>${escapeHtml(intro)}</p>
${button(input.confirmUrl, GUARDIAN_MSG.confirmButton)}
<p>Or copy this link into your browser:<br><a href="${safeHref(input.confirmUrl)}">${escapeHtml(input.confirmUrl)}</a></p>
${marketing ? `<p>${escapeHtml(marketing)}</p>\n` : ''}<p>${escapeHtml(validity)}</p>`,
  );
  return { subject, text, html };
}
