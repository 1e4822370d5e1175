/**
 * /confirm-email?token=…: where a guardian's confirmation e-mail leads (docs/outreach.md, "Double
 * opt-in"). Opening the page changes nothing (mail scanners and link previews open links); a
 * person's press of its button confirms, with `POST /api/guardians/confirm` `{ token }` from this
 * page. Only then does this browser get the guardian cookie.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { GUARDIAN_CONSENT_MSG } from '@contract/guardian-consent';
import { OUTREACH_SCREEN_MSG } from '@contract/messages';
import { Button, buttonClass } from '../../components/ui/button';
import { NarrowCardPage } from '../../components/ui/card';
import { confirmGuardian } from '../../features/outreach/api';
import { ApiError, NetworkError } from '../../lib/api-client';
import { readCart } from '../../lib/cart';
import { scheduleCartMirror } from '../../lib/cart-mirror';
import { forgetGuardianMe, guardianKeys } from '../../lib/guardian';
import { paths } from '../../lib/paths';
import { useUnlockedChildren } from '../../lib/unlocked-children';
import { useTitle } from '../../lib/use-title';

/** A link the server refuses for good (its own title and words) or a failure worth another press. */
function problemOf(err: unknown): { title: string; message: string; final: boolean } {
  if (err instanceof ApiError && err.status === 400) {
    return err.code === 'CONFIRM_LINK_USED'
      ? { title: GUARDIAN_CONSENT_MSG.usedTitle, message: GUARDIAN_CONSENT_MSG.linkUsed, final: true }
      : { title: OUTREACH_SCREEN_MSG.invalidTitle, message: OUTREACH_SCREEN_MSG.invalidWhat, final: true };
  }
  if (err instanceof NetworkError) return { title: GUARDIAN_CONSENT_MSG.pageTitle, message: err.message, final: false };
  if (err instanceof ApiError && err.status === 403) return { title: GUARDIAN_CONSENT_MSG.pageTitle, message: GUARDIAN_CONSENT_MSG.confirmFromPage, final: false };
  if (err instanceof ApiError && err.status === 429) return { title: GUARDIAN_CONSENT_MSG.pageTitle, message: OUTREACH_SCREEN_MSG.rateLimited, final: false };
  return { title: GUARDIAN_CONSENT_MSG.pageTitle, message: OUTREACH_SCREEN_MSG.failed, final: false };
}

export default function ConfirmEmail() {
  const [search] = useSearchParams();
  const token = (search.get('token') ?? '').trim();
  const queryClient = useQueryClient();
  const hasChildren = useUnlockedChildren().length > 0;
  const confirm = useMutation({
    mutationFn: confirmGuardian,
    onSuccess: () => {
      // This browser's guardian is confirmed now: the gallery stops offering, and a cart waiting here is mirrored.
      forgetGuardianMe();
      void queryClient.invalidateQueries({ queryKey: guardianKeys.me });
      const cart = readCart();
      if (cart.length > 0) scheduleCartMirror(cart);
    },
  });
  const problem = confirm.isError ? problemOf(confirm.error) : null;
  const title = confirm.isSuccess ? OUTREACH_SCREEN_MSG.confirmedTitle : !token ? OUTREACH_SCREEN_MSG.invalidTitle : (problem?.title ?? GUARDIAN_CONSENT_MSG.pageTitle);
  useTitle(title);

  const onward = (
    <Link to={hasChildren ? paths.children : paths.home} className={buttonClass(confirm.isSuccess || problem?.final || !token ? 'primary' : 'outline')}>
      {hasChildren ? OUTREACH_SCREEN_MSG.backToGallery : OUTREACH_SCREEN_MSG.home}
    </Link>
  );

  if (!token) {
    return (
      <NarrowCardPage>
        <h1>{title}</h1>
        <p className="alert alert-danger" role="alert">
          {GUARDIAN_CONSENT_MSG.noToken}
        </p>
        {onward}
      </NarrowCardPage>
    );
  }
  if (confirm.isSuccess) {
    return (
      <NarrowCardPage>
        <h1>{title}</h1>
        <p role="status">{OUTREACH_SCREEN_MSG.confirmedWhat}</p>
        <p>{OUTREACH_SCREEN_MSG.confirmedUnsubscribe}</p>
        {onward}
      </NarrowCardPage>
    );
  }
  if (problem?.final) {
    return (
      <NarrowCardPage>
        <h1>{title}</h1>
        <p className="alert alert-danger" role="alert">
          {problem.message}
        </p>
        {onward}
      </NarrowCardPage>
    );
  }
  return (
    <NarrowCardPage>
      <h1>{title}</h1>
      <p>{GUARDIAN_CONSENT_MSG.pageWhat}</p>
      {problem ? (
        <p className="alert alert-danger" role="alert">
          {problem.message}
        </p>
      ) : null}
      <div className="stack">
        <Button block onClick={() => confirm.mutate(token)} disabled={confirm.isPending}>
          {confirm.isPending ? GUARDIAN_CONSENT_MSG.confirming : GUARDIAN_CONSENT_MSG.confirmButton}
        </Button>
        {onward}
      </div>
    </NarrowCardPage>
  );
}
