/**
 * /stop-sms?token=…: where the "Stop SMS" short link at the end of every season SMS leads
 * (docs/sms.md, "Opting out"). Opening the page changes nothing: SMS apps and link previews fetch
 * links, so it only asks what the link names (GET). A person's press of its one button stops the
 * SMS (POST). Small and plain for a cheap phone: one card, one button.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SMS_STOP_MSG as M } from '@contract/season-sms-messages';
import { Button, buttonClass } from '../../components/ui/button';
import { NarrowCardPage } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { smsStopInfo, smsStopKeys, stopSms } from '../../features/sms/stop-api';
import { ApiError } from '../../lib/api-client';
import { forgetGuardianMe, guardianKeys } from '../../lib/guardian';
import { paths } from '../../lib/paths';
import { useTitle } from '../../lib/use-title';

/** A link the server refuses (400: not made by it, or no token) is final; anything else may be tried again. */
const refused = (err: unknown) => err instanceof ApiError && (err.status === 400 || err.status === 404);

export default function StopSms() {
  const [search] = useSearchParams();
  const token = (search.get('token') ?? '').trim();
  useTitle(M.title);
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: smsStopKeys.info(token), queryFn: () => smsStopInfo(token), enabled: token !== '', retry: false, staleTime: Infinity });
  const stop = useMutation({
    mutationFn: stopSms,
    onSuccess: () => {
      forgetGuardianMe();
      void queryClient.invalidateQueries({ queryKey: guardianKeys.me });
    },
  });
  const phone = stop.data?.phone ?? info.data?.phone ?? '';

  const home = (
    <Link to={paths.home} className={buttonClass(stop.isSuccess || !token || info.isError ? 'primary' : 'outline')}>
      {M.home}
    </Link>
  );

  if (!token || (info.isError && refused(info.error)) || (info.data && !info.data.phone)) {
    return (
      <NarrowCardPage>
        <h1>{M.title}</h1>
        <p className="alert alert-danger" role="alert">
          {M.linkInvalid}
        </p>
        {home}
      </NarrowCardPage>
    );
  }
  if (info.isError) {
    return (
      <NarrowCardPage>
        <h1>{M.title}</h1>
        <p className="alert alert-danger" role="alert">
          {M.failed}
        </p>
        <div className="stack">
          <Button block onClick={() => void info.refetch()}>
            {M.tryAgain}
          </Button>
          {home}
        </div>
      </NarrowCardPage>
    );
  }
  if (!info.data) {
    return (
      <NarrowCardPage>
        <PageSpinner label={M.loading} />
      </NarrowCardPage>
    );
  }
  if (stop.isSuccess || info.data.unsubscribed) {
    return (
      <NarrowCardPage>
        <h1>{M.title}</h1>
        <p role="status" style={{ overflowWrap: 'anywhere' }}>
          {stop.isSuccess ? M.stopped(phone) : M.alreadyStopped(phone)}
        </p>
        <p>{M.orderSmsStill}</p>
        {home}
      </NarrowCardPage>
    );
  }
  return (
    <NarrowCardPage>
      <h1>{M.title}</h1>
      <p style={{ overflowWrap: 'anywhere' }}>{M.prompt(phone)}</p>
      {stop.isError ? (
        <p className="alert alert-danger" role="alert">
          {refused(stop.error) ? M.linkInvalid : M.failed}
        </p>
      ) : null}
      <div className="stack">
        <Button block onClick={() => stop.mutate(token)} disabled={stop.isPending}>
          {stop.isPending ? M.stopping : M.button}
        </Button>
        {home}
      </div>
    </NarrowCardPage>
  );
}
