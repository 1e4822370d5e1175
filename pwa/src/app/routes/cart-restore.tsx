/**
 * /cart/restore?token=…: the link in "Your photos are still in your cart" (docs/outreach.md,
 * "Abandoned carts and unpaid orders"). The server answers with the cart priced now (and sets the
 * grant to see its photos); its lines join this device's cart, the parent is told how many could
 * not come back, and the cart opens.
 */
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OUTREACH_SCREEN_MSG } from '@contract/messages';
import type { CartRestoreResponse } from '@contract/outreach';
import { Button, buttonClass } from '../../components/ui/button';
import { NarrowCardPage } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { restoreCart } from '../../features/outreach/api';
import { restoredCartLines } from '../../features/outreach/restored-lines';
import { useOnce } from '../../lib/use-once';
import { ApiError, NetworkError } from '../../lib/api-client';
import { dispatchCart, readCart } from '../../lib/cart';
import { buildCheckoutCart } from '../../lib/checkout-cart';
import { forgetGuardianMe } from '../../lib/guardian';
import { paths } from '../../lib/paths';
import { refreshAfterGrantChange } from '../../lib/query-client';
import { LOCAL_KEYS, writeJson } from '../../lib/storage';
import { useTitle } from '../../lib/use-title';

/** 410: the cart is gone (expired, or ordered); 400/404: not a link this server made. */
function problemOf(err: unknown): { message: string; retry: boolean } {
  if (err instanceof NetworkError) return { message: err.message, retry: true };
  if (err instanceof ApiError) {
    if (err.status === 410) return { message: err.serverMessage ?? OUTREACH_SCREEN_MSG.restoreExpired, retry: false };
    if (err.status === 400 || err.status === 404) return { message: OUTREACH_SCREEN_MSG.linkInvalid, retry: false };
    if (err.status === 429) return { message: OUTREACH_SCREEN_MSG.rateLimited, retry: true };
  }
  return { message: OUTREACH_SCREEN_MSG.failed, retry: true };
}

export default function CartRestore() {
  useTitle(OUTREACH_SCREEN_MSG.restoreHeading);
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [empty, setEmpty] = useState<CartRestoreResponse | null>(null);

  const restore = useMutation({
    mutationFn: restoreCart,
    onSuccess: async (answer) => {
      const added = restoredCartLines(answer.items, readCart());
      if (added.length > 0) dispatchCart({ type: 'add', lines: added });
      const first = answer.items[0];
      if (first) writeJson(LOCAL_KEYS.currentSchool, { id: first.schoolId, name: first.schoolName });
      // The answer's cookies may open more photos than this device knew of (the gallery lists are
      // fetched again) and name the guardian, whose cart this browser now mirrors.
      forgetGuardianMe();
      await refreshAfterGrantChange(queryClient);
      if (answer.items.length === 0) {
        setEmpty(answer);
        return;
      }
      const description = [OUTREACH_SCREEN_MSG.restoredLines(answer.items.length), answer.dropped > 0 ? OUTREACH_SCREEN_MSG.droppedLines(answer.dropped) : '']
        .filter(Boolean)
        .join(' ');
      toast({ title: OUTREACH_SCREEN_MSG.restoredTitle, description, variant: answer.dropped > 0 ? 'default' : 'success' });
      buildCheckoutCart();
      navigate(paths.checkout, { replace: true });
    },
  });
  useOnce(token, restore.mutate);

  if (!token) {
    return (
      <Shell>
        <p className="alert alert-danger" role="alert">
          {OUTREACH_SCREEN_MSG.linkInvalid}
        </p>
        <BackLink slug={null} />
      </Shell>
    );
  }
  if (empty) {
    return (
      <Shell>
        <p className="alert alert-warn" role="alert">
          {OUTREACH_SCREEN_MSG.nothingRestored} {empty.dropped > 0 ? OUTREACH_SCREEN_MSG.droppedLines(empty.dropped) : ''}
        </p>
        <BackLink slug={empty.schoolSlug} />
      </Shell>
    );
  }
  if (restore.isError) {
    const problem = problemOf(restore.error);
    return (
      <Shell>
        <p className="alert alert-danger" role="alert">
          {problem.message}
        </p>
        <div className="row">
          {problem.retry ? <Button onClick={() => restore.mutate(token)}>{OUTREACH_SCREEN_MSG.tryAgain}</Button> : null}
          <BackLink slug={null} variant={problem.retry ? 'outline' : 'primary'} />
        </div>
      </Shell>
    );
  }
  return (
    <Shell>
      <PageSpinner label={OUTREACH_SCREEN_MSG.restoring} />
    </Shell>
  );
}

/** Back to the school's gallery when the answer named it, else home. */
function BackLink({ slug, variant = 'primary' }: { slug: string | null; variant?: 'primary' | 'outline' }) {
  return (
    <Link to={slug ? paths.school(slug) : paths.home} className={buttonClass(variant)}>
      {slug ? OUTREACH_SCREEN_MSG.backToGallery : OUTREACH_SCREEN_MSG.home}
    </Link>
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <NarrowCardPage>
      <h1>{OUTREACH_SCREEN_MSG.restoreHeading}</h1>
      {children}
    </NarrowCardPage>
  );
}
