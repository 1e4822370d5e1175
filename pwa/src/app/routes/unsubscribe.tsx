/**
 * /unsubscribe?token=…: the link at the foot of every non-transactional e-mail (docs/outreach.md,
 * "Unsubscribe in one click"). Opening the page is the one click: it POSTs the token at once. A
 * mail scanner that only fetches the link runs no script, so it unsubscribes nobody.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OUTREACH_SCREEN_MSG } from '@contract/messages';
import { Button, buttonClass } from '../../components/ui/button';
import { NarrowCardPage } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { unsubscribeGuardian } from '../../features/outreach/api';
import { useOnce } from '../../lib/use-once';
import { ApiError, NetworkError } from '../../lib/api-client';
import { forgetGuardianMe, guardianKeys } from '../../lib/guardian';
import { paths } from '../../lib/paths';
import { useTitle } from '../../lib/use-title';

/** A link the server refuses for good (`retry` false) or a failure worth another try. */
function problemOf(err: unknown): { message: string; retry: boolean } {
  if (err instanceof NetworkError) return { message: err.message, retry: true };
  if (err instanceof ApiError) {
    if (err.status === 400 || err.status === 404) return { message: OUTREACH_SCREEN_MSG.linkInvalid, retry: false };
    if (err.status === 429) return { message: OUTREACH_SCREEN_MSG.rateLimited, retry: true };
  }
  return { message: OUTREACH_SCREEN_MSG.failed, retry: true };
}

export default function Unsubscribe() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  useTitle(OUTREACH_SCREEN_MSG.unsubscribedTitle);
  const queryClient = useQueryClient();
  const unsubscribe = useMutation({
    mutationFn: unsubscribeGuardian,
    onSuccess: () => {
      forgetGuardianMe();
      void queryClient.invalidateQueries({ queryKey: guardianKeys.me });
    },
  });
  useOnce(token, unsubscribe.mutate);

  if (!token) {
    return (
      <NarrowCardPage>
        <h1>{OUTREACH_SCREEN_MSG.unsubscribedTitle}</h1>
        <p className="alert alert-danger" role="alert">
          {OUTREACH_SCREEN_MSG.linkInvalid}
        </p>
        <HomeLink />
      </NarrowCardPage>
    );
  }
  if (unsubscribe.isSuccess) {
    // The same words whether or not the address was subscribed: either way it gets none of these e-mails now.
    return (
      <NarrowCardPage>
        <h1>{OUTREACH_SCREEN_MSG.unsubscribedTitle}</h1>
        <p role="status" style={{ overflowWrap: 'anywhere' }}>
          {OUTREACH_SCREEN_MSG.unsubscribedFor(unsubscribe.data.email ?? unsubscribe.data.phone ?? '')}
        </p>
        <p>{OUTREACH_SCREEN_MSG.orderEmailsStill}</p>
        <HomeLink />
      </NarrowCardPage>
    );
  }
  if (unsubscribe.isError) {
    const problem = problemOf(unsubscribe.error);
    return (
      <NarrowCardPage>
        <h1>{OUTREACH_SCREEN_MSG.unsubscribedTitle}</h1>
        <p className="alert alert-danger" role="alert">
          {problem.message}
        </p>
        <div className="row">
          {problem.retry ? <Button onClick={() => unsubscribe.mutate(token)}>{OUTREACH_SCREEN_MSG.tryAgain}</Button> : null}
          <HomeLink variant={problem.retry ? 'outline' : 'primary'} />
        </div>
      </NarrowCardPage>
    );
  }
  return (
    <NarrowCardPage>
      <PageSpinner label={OUTREACH_SCREEN_MSG.unsubscribing} />
    </NarrowCardPage>
  );
}

function HomeLink({ variant = 'primary' }: { variant?: 'primary' | 'outline' }) {
  return (
    <Link to={paths.home} className={buttonClass(variant)}>
      {OUTREACH_SCREEN_MSG.home}
    </Link>
  );
}
