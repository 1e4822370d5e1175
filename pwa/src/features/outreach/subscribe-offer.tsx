/**
 * The gallery's offer, "Tell me when photos are online and before ordering closes"
 * (docs/outreach.md, "Consent"), by SMS or e-mail. Part of the gallery's first download, so it is small: a heading,
 * one line and a button. The form itself (with zod and the consent texts' checks) is downloaded
 * when the parent asks for it, so a parent who only looks at photos never pays for it. A browser
 * whose guardian is subscribed and confirmed sees one line with the (partly hidden) number or address instead.
 */
import { useState, type ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { OUTREACH_OFFER_MSG } from '@contract/outreach-offer-messages';
import { Button } from '../../components/ui/button';
import { NetworkError } from '../../lib/api-client';
import { guardianMeQuery, isConfirmedGuardian } from '../../lib/guardian';
import type { SubscribeFormProps } from './subscribe-form';

/** The form's code could not be fetched: almost always no connection (the worker keeps it once fetched). */
const OFFLINE_TEXT = new NetworkError(null).message;

export function SubscribeOffer() {
  const me = useQuery(guardianMeQuery());
  const [Form, setForm] = useState<ComponentType<SubscribeFormProps> | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  // A form opened here stays (its code step says "confirmed" itself, and /me turns confirmed under it).
  if (!Form && isConfirmedGuardian(me.data) && (me.data?.email || me.data?.phone)) {
    return (
      <p className="muted" style={{ marginTop: 'var(--space-6)' }}>
        {me.data.phone ? OUTREACH_OFFER_MSG.subscribedAsPhone(me.data.phone) : OUTREACH_OFFER_MSG.subscribedAs(me.data.email ?? '')}
      </p>
    );
  }

  const open = () => {
    setState('loading');
    import('./subscribe-form').then(
      (module) => setForm(() => module.SubscribeForm),
      () => setState('failed'),
    );
  };

  return (
    <section className="card card-body" style={{ marginTop: 'var(--space-6)' }} aria-labelledby="subscribe-offer">
      <h2 id="subscribe-offer" style={{ fontSize: '1.125rem' }}>
        {OUTREACH_OFFER_MSG.offer}
      </h2>
      {Form ? (
        <Form />
      ) : (
        <>
          <Button variant="outline" onClick={open} disabled={state === 'loading'}>
            {OUTREACH_OFFER_MSG.offerOpen}
          </Button>
          {state === 'failed' ? (
            <p className="field-error" role="alert">
              {OFFLINE_TEXT}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
