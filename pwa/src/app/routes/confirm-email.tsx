/**
 * /subscribed?status=confirmed|invalid: where a guardian's confirmation link lands (the API checks
 * the link and redirects a browser here; docs/outreach.md, "Double opt-in").
 */
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { OUTREACH_SCREEN_MSG } from '@contract/messages';
import { buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { readCart } from '../../lib/cart';
import { scheduleCartMirror } from '../../lib/cart-mirror';
import { forgetGuardianMe, guardianKeys } from '../../lib/guardian';
import { paths } from '../../lib/paths';
import { useUnlockedChildren } from '../../lib/unlocked-children';
import { useTitle } from '../../lib/use-title';

export default function Subscribed() {
  const [search] = useSearchParams();
  const confirmed = search.get('status') === 'confirmed';
  useTitle(confirmed ? OUTREACH_SCREEN_MSG.confirmedTitle : OUTREACH_SCREEN_MSG.invalidTitle);
  const queryClient = useQueryClient();
  const hasChildren = useUnlockedChildren().length > 0;

  useEffect(() => {
    if (!confirmed) return;
    // This browser's guardian is confirmed now: the gallery stops offering, and a cart waiting here is mirrored.
    forgetGuardianMe();
    void queryClient.invalidateQueries({ queryKey: guardianKeys.me });
    const cart = readCart();
    if (cart.length > 0) scheduleCartMirror(cart);
  }, [confirmed, queryClient]);

  const gallery = hasChildren ? paths.children : paths.home;
  return (
    <div className="container page page-narrow">
      <Card>
        <CardBody>
          {confirmed ? (
            <>
              <h1>{OUTREACH_SCREEN_MSG.confirmedTitle}</h1>
              <p>{OUTREACH_SCREEN_MSG.confirmedWhat}</p>
              <p>{OUTREACH_SCREEN_MSG.confirmedUnsubscribe}</p>
            </>
          ) : (
            <>
              <h1>{OUTREACH_SCREEN_MSG.invalidTitle}</h1>
              <p>{OUTREACH_SCREEN_MSG.invalidWhat}</p>
            </>
          )}
          <Link to={gallery} className={buttonClass('primary')}>
            {hasChildren ? OUTREACH_SCREEN_MSG.backToGallery : OUTREACH_SCREEN_MSG.home}
          </Link>
        </CardBody>
      </Card>
    </div>
  );
}
