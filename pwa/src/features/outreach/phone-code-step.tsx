/**
 * The code from the SMS (docs/outreach.md, "Double opt-in: by phone"): after subscribing by phone
 * the form asks for the 6-digit code (a numeric keypad, and the phone may offer the code from the
 * SMS itself), says in words when it is wrong (with the tries left), has ended or has expired, and
 * sends a new code on request. Part of the subscribe form's chunk, never of the first visit.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OUTREACH_SCREEN_MSG } from '@contract/outreach-messages';
import { GUARDIAN_PHONE_MSG, GUARDIAN_PHONE_SCREEN_MSG as P, confirmCodeField } from '@contract/guardian-phone';
import { maskPhone } from '@contract/phone';
import type { GuardianSubscribeInput } from '@contract/outreach';
import { Field } from '../../components/ui/field';
import { Button } from '../../components/ui/button';
import { SubmitButton } from '../../components/ui/form-actions';
import { ApiError, NetworkError } from '../../lib/api-client';
import { forgetGuardianMe, guardianKeys } from '../../lib/guardian';
import { confirmGuardianCode, subscribeGuardian } from './api';

const CODE_ID = 'subscribe-code';

/** The server's words for a code it refused, or a clear sentence for anything else. */
function problemOf(err: unknown): string {
  if (err instanceof NetworkError) return err.message;
  if (err instanceof ApiError) {
    if (err.status === 429) return OUTREACH_SCREEN_MSG.rateLimited;
    return err.fieldErrors?.code ?? err.serverMessage ?? OUTREACH_SCREEN_MSG.failed;
  }
  return OUTREACH_SCREEN_MSG.failed;
}

/** Codes the server will not take again: only a new code helps. */
const NEEDS_NEW_CODE = new Set(['CONFIRM_CODE_ENDED', 'CONFIRM_CODE_EXPIRED', 'CONFIRM_CODE_USED', 'CONFIRM_CODE_INVALID']);

export interface PhoneCodeStepProps {
  /** What was subscribed (sent again for a new code). */
  request: GuardianSubscribeInput;
  /** E.164, as the form's schema gave it. */
  phone: string;
  /** The server's answer to the subscribe. */
  message: string;
  onOtherNumber: () => void;
}

export function PhoneCodeStep({ request, phone, message, onOtherNumber }: PhoneCodeStepProps) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [needsNew, setNeedsNew] = useState(false);
  const [resent, setResent] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const done = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  const confirm = useMutation({
    mutationFn: confirmGuardianCode,
    onSuccess: () => {
      // The guardian cookie now names a confirmed number: the gallery shows it instead of the offer.
      forgetGuardianMe();
      void queryClient.invalidateQueries({ queryKey: guardianKeys.me });
    },
    onError: (err) => {
      setError(problemOf(err));
      setNeedsNew(err instanceof ApiError && err.code !== null && NEEDS_NEW_CODE.has(err.code));
      document.getElementById(CODE_ID)?.focus();
    },
  });
  const newCode = useMutation({
    mutationFn: () => subscribeGuardian(request),
    onSuccess: () => {
      setCode('');
      setError(null);
      setNeedsNew(false);
      setResent(true);
      confirm.reset();
      document.getElementById(CODE_ID)?.focus();
    },
    onError: (err) => setError(problemOf(err)),
  });

  useEffect(() => {
    if (confirm.isSuccess) done.current?.focus();
  }, [confirm.isSuccess]);

  if (confirm.isSuccess) {
    return (
      <div role="status">
        <h3 ref={done} tabIndex={-1}>
          {P.confirmedTitle}
        </h3>
        <p>{P.confirmedWhat}</p>
        <p>{P.confirmedStop}</p>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = confirmCodeField.safeParse(code);
    if (!parsed.success) {
      setError(GUARDIAN_PHONE_MSG.codeRequired);
      document.getElementById(CODE_ID)?.focus();
      return;
    }
    setError(null);
    setResent(false);
    confirm.mutate({ phone, code: parsed.data });
  };

  return (
    <form onSubmit={submit} noValidate>
      <h3 ref={heading} tabIndex={-1}>
        {P.codeTitle}
      </h3>
      <p>{message}</p>
      <p>{P.codeSentTo(maskPhone(phone))}</p>
      {resent ? (
        <p className="alert alert-info" role="status">
          {P.newCodeSent}
        </p>
      ) : null}
      <Field
        id={CODE_ID}
        label={P.codeLabel}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={7}
        value={code}
        error={error}
        onChange={(event) => setCode(event.target.value)}
      />
      <div className="stack-tight">
        {needsNew ? null : (
          <SubmitButton block busy={confirm.isPending} busyLabel={P.confirming}>
            {P.confirm}
          </SubmitButton>
        )}
        <Button type="button" variant={needsNew ? 'primary' : 'outline'} onClick={() => newCode.mutate()} disabled={newCode.isPending}>
          {P.newCode}
        </Button>
        <Button type="button" variant="ghost" onClick={onOtherNumber}>
          {P.otherNumber}
        </Button>
      </div>
    </form>
  );
}
