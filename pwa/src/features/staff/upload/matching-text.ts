import type { MatchingSummary } from '@contract/matching';
import { MATCHING_MSG } from '@contract/messages';

/** A session's matching in one line: by card, by file name, waiting in the tray. */
export function summaryText(summary: MatchingSummary): string {
  return [MATCHING_MSG.summaryMatched(summary.byCard, summary.byName), MATCHING_MSG.summaryTray(summary.inTray)].join('; ');
}
