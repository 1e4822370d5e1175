/**
 * "I have a student code": the code from a child's flyer unlocks that child on this device. Typed
 * in any case, with or without the dash.
 */
import { Suspense, lazy, useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isStudentCode, normaliseStudentCode } from '@contract/student-codes';
import type { StudentVerifyResponse } from '@contract/students';
import { PWA_MSG } from '@contract/pwa-messages';
import { CODE_RECOVERY_LINK, CODE_RECOVERY_OPENING } from '@contract/code-recovery-link';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { refreshAfterGrantChange } from '../../lib/query-client';
import { addUnlockedChild } from '../../lib/unlocked-children';
import { verifyStudentCode } from './api';

/** "Lost your code? Get it by SMS": loaded when asked for, never with the first screen (docs/sms.md, "Codes recovered by phone"). */
const RecoverCodeForm = lazy(() => import('./recover-code-form'));

export const CODE_FORMAT_HINT = 'A student code has 8 letters and digits, like K7Q2-M9XD';

export interface StudentCodeFormProps {
  initialCode?: string;
  submitLabel?: string;
  onUnlocked: (unlocked: StudentVerifyResponse) => void;
}

export function StudentCodeForm({ initialCode = '', submitLabel = "Open My Child's Photos", onUnlocked }: StudentCodeFormProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [code, setCode] = useState(initialCode);
  const [error, setError] = useState<string | null>(null);
  const [recovering, setRecovering] = useState(false);

  const verify = useMutation({
    mutationFn: (value: string) => verifyStudentCode(value),
    onSuccess: async (result) => {
      addUnlockedChild(result);
      setCode('');
      setError(null);
      toast({ title: PWA_MSG.accessGrantedTitle, description: PWA_MSG.childPhotosReady(result.student.name), variant: 'success' });
      await refreshAfterGrantChange(queryClient);
      onUnlocked(result);
    },
    onError: (err) => {
      const description = errorMessage(err, "We couldn't check that code. Please try again.");
      setError(description);
      toast({ title: PWA_MSG.accessDeniedTitle, description, variant: 'destructive' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const normalised = normaliseStudentCode(code);
    if (!isStudentCode(normalised)) {
      setError(CODE_FORMAT_HINT);
      return;
    }
    verify.mutate(normalised);
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        <Field
          id={`${id}-code`}
          label="Student code"
          error={error}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="e.g. K7Q2-M9XD"
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <Button type="submit" block size="lg" disabled={code.trim() === '' || verify.isPending}>
          {verify.isPending ? 'Verifying...' : submitLabel}
        </Button>
      </form>
      {recovering ? (
        <Suspense fallback={<p className="muted center">{CODE_RECOVERY_OPENING}</p>}>
          <RecoverCodeForm onClose={() => setRecovering(false)} />
        </Suspense>
      ) : (
        <p className="center code-lost">
          <button type="button" onClick={() => setRecovering(true)}>
            {CODE_RECOVERY_LINK}
          </button>
        </p>
      )}
    </>
  );
}
