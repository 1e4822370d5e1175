/**
 * Subscribing from the gallery (docs/outreach.md, "Consent", "Double opt-in" and "Double opt-in: by
 * phone"): "By SMS" (a mobile number, the default: most parents in Botswana read SMS, fewer read
 * e-mail) or "By e-mail" (an address), the consent box (unticked; its text shown word for word, as
 * versioned in the contract), the optional marketing box, then the code from the SMS
 * (phone-code-step.tsx) or "check your e-mail". The Subscribe button always works: without the
 * consent tick the form says why, as the server would. Downloaded only when a parent opens the offer.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSENT, OUTREACH_SCREEN_MSG } from '@contract/messages';
import { guardianSubscribeSchema, type GuardianSubscribeInput, type GuardianSubscribeResponse } from '@contract/outreach';
import { GUARDIAN_PHONE_SCREEN_MSG as P } from '@contract/guardian-phone';
import { Checkbox } from '../../components/ui/checkbox';
import { Field } from '../../components/ui/field';
import { FieldError } from '../../components/ui/label';
import { Button } from '../../components/ui/button';
import { SubmitButton } from '../../components/ui/form-actions';
import { ApiError, NetworkError } from '../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../lib/form';
import { forgetGuardianMe, guardianKeys } from '../../lib/guardian';
import { subscribeGuardian } from './api';
import { PhoneCodeStep } from './phone-code-step';

type FieldName = 'phone' | 'email' | 'consent' | 'marketing';
type Channel = 'sms' | 'email';

export interface SubscribeFormProps {
  /** Moves focus into the form when it appears (it was opened by a tap). Default true. */
  focusOnOpen?: boolean;
  /** The way offered first: SMS unless said. */
  defaultChannel?: Channel;
}

const IDS = { phone: 'subscribe-phone', email: 'subscribe-email', consent: 'subscribe-consent', marketing: 'subscribe-marketing' } as const;

/** The two ways, side by side, each a full-height tap target. */
const choiceStyle = { display: 'inline-flex', alignItems: 'center', gap: 'var(--space-2)', minHeight: 44, marginRight: 'var(--space-4)' } as const;

/** What went wrong, for the form: field messages from a 400, a clear sentence for everything else. */
function problemOf(err: unknown): { fields: FieldErrors<FieldName>; message: string | null } {
  if (err instanceof NetworkError) return { fields: {}, message: err.message };
  if (err instanceof ApiError) {
    if (err.status === 429) return { fields: {}, message: OUTREACH_SCREEN_MSG.rateLimited };
    const fields: FieldErrors<FieldName> = {};
    for (const name of Object.keys(IDS) as FieldName[]) if (err.fieldErrors?.[name]) fields[name] = err.fieldErrors[name];
    // A field's own message says it beside the field; anything else goes above the form.
    if (Object.keys(fields).length > 0) return { fields, message: null };
    return { fields, message: err.serverMessage ?? OUTREACH_SCREEN_MSG.failed };
  }
  return { fields: {}, message: OUTREACH_SCREEN_MSG.failed };
}

function focusFirst(fields: FieldErrors<FieldName>): void {
  const first = (Object.keys(IDS) as FieldName[]).find((name) => fields[name]);
  if (first) document.getElementById(IDS[first])?.focus();
}

export function SubscribeForm({ focusOnOpen = true, defaultChannel = 'sms' }: SubscribeFormProps) {
  const queryClient = useQueryClient();
  const [channel, setChannel] = useState<Channel>(defaultChannel);
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [marketing, setMarketing] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<FieldName>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<{ input: GuardianSubscribeInput; answer: GuardianSubscribeResponse } | null>(null);
  const sentHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (focusOnOpen) document.getElementById(channel === 'sms' ? IDS.phone : IDS.email)?.focus();
    // Only when the form opens: choosing a way moves focus by itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusOnOpen]);
  useEffect(() => {
    if (sent) sentHeading.current?.focus();
  }, [sent]);

  const subscribe = useMutation({
    mutationFn: subscribeGuardian,
    onSuccess: (answer, input) => {
      // The guardian cookie now names an unconfirmed subscription: what the gallery knew is out of date.
      forgetGuardianMe();
      void queryClient.invalidateQueries({ queryKey: guardianKeys.me });
      setSent({ input, answer });
    },
    onError: (err) => {
      const found = problemOf(err);
      setErrors(found.fields);
      setProblem(found.message);
      focusFirst(found.fields);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = guardianSubscribeSchema.safeParse(channel === 'sms' ? { phone, consent, marketing } : { email, consent, marketing });
    if (!parsed.success) {
      const found = fieldErrors<FieldName>(parsed.error);
      setErrors(found);
      setProblem(null);
      focusFirst(found);
      return;
    }
    setErrors({});
    setProblem(null);
    subscribe.mutate(parsed.data);
  };

  const again = () => {
    setSent(null);
    setPhone('');
    setEmail('');
    setConsent(false);
    setMarketing(false);
    subscribe.reset();
  };

  if (sent?.input.phone !== undefined) {
    return <PhoneCodeStep request={sent.input} phone={sent.input.phone} message={sent.answer.message} onOtherNumber={again} />;
  }

  if (sent) {
    return (
      // A long address breaks anywhere rather than widen a phone's screen.
      <div role="status" style={{ overflowWrap: 'anywhere' }}>
        <h3 ref={sentHeading} tabIndex={-1}>
          {OUTREACH_SCREEN_MSG.checkEmailTitle}
        </h3>
        <p>{sent.answer.message}</p>
        <p>{OUTREACH_SCREEN_MSG.checkEmailSentTo(sent.input.email ?? '')}</p>
        <Button variant="outline" onClick={again}>
          {OUTREACH_SCREEN_MSG.subscribeAgain}
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      {problem ? (
        <p className="alert alert-danger" role="alert">
          {problem}
        </p>
      ) : null}
      <fieldset className="field" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <legend className="label">{P.channelLegend}</legend>
        {(['sms', 'email'] as const).map((way) => (
          <label key={way} style={choiceStyle}>
            <input
              type="radio"
              name="subscribe-channel"
              value={way}
              checked={channel === way}
              style={{ width: 20, height: 20 }}
              onChange={() => {
                setChannel(way);
                setErrors({});
                setProblem(null);
              }}
            />
            {way === 'sms' ? P.bySms : P.byEmail}
          </label>
        ))}
      </fieldset>
      {channel === 'sms' ? (
        <Field
          id={IDS.phone}
          label={P.phoneLabel}
          hint={P.phoneHint}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={phone}
          error={errors.phone}
          onChange={(event) => setPhone(event.target.value)}
        />
      ) : (
        <Field
          id={IDS.email}
          label={OUTREACH_SCREEN_MSG.emailLabel}
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          error={errors.email}
          onChange={(event) => setEmail(event.target.value)}
        />
      )}
      <div className="field">
        <div className="row" style={{ flexWrap: 'nowrap', alignItems: 'flex-start' }}>
          <Checkbox
            id={IDS.consent}
            checked={consent}
            aria-invalid={errors.consent ? true : undefined}
            aria-describedby={errors.consent ? `${IDS.consent}-error` : undefined}
            onCheckedChange={(checked) => setConsent(checked === true)}
          />
          <label htmlFor={IDS.consent}>{CONSENT.text}</label>
        </div>
        <FieldError id={`${IDS.consent}-error`}>{errors.consent ?? null}</FieldError>
      </div>
      <div className="field">
        <div className="row" style={{ flexWrap: 'nowrap', alignItems: 'flex-start' }}>
          <Checkbox id={IDS.marketing} checked={marketing} onCheckedChange={(checked) => setMarketing(checked === true)} />
          <label htmlFor={IDS.marketing}>{CONSENT.marketing}</label>
        </div>
        <FieldError id={`${IDS.marketing}-error`}>{errors.marketing ?? null}</FieldError>
      </div>
      <SubmitButton block busy={subscribe.isPending} busyLabel={OUTREACH_SCREEN_MSG.subscribing}>
        {OUTREACH_SCREEN_MSG.subscribe}
      </SubmitButton>
    </form>
  );
}
