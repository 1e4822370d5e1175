/**
 * "I have a student code": the code from a child's flyer unlocks that child on this device. Typed
 * in any case, with or without the dash. The form is part of the first screen; the check behind it
 * (code-check.ts) is loaded when the parent reaches for the form (docs/performance.md, "What loads
 * when").
 */
import { Suspense, lazy, useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StudentVerifyResponse } from '@contract/students';
import { PWA_MSG } from '@contract/pwa-messages';
import { CODE_RECOVERY_LINK, CODE_RECOVERY_OPENING } from '@contract/code-recovery-link';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { refreshAfterGrantChange } from '../../lib/query-client';
import { addUnlockedChild } from '../../lib/unlocked-children';
import type * as CodeCheck from './code-check';

/** "Lost your code? Get it by SMS": loaded when asked for, never with the first screen (docs/sms.md, "Codes recovered by phone"). */
const RecoverCodeForm = lazy(() => import('./recover-code-form'));

/** The check's code, asked for once (a failed fetch is asked for again next time). */
let codeCheck: Promise<typeof CodeCheck> | null = null;
const loadCodeCheck = () => {
  codeCheck ??= import('./code-check').catch((err: unknown) => {
    codeCheck = null;
    throw err;
  });
  return codeCheck;
};
/** Starts the download on intent, so the tap on the button finds it there. */
const preloadCodeCheck = () => void loadCodeCheck().catch(() => undefined);
const isFormatError = (err: unknown) => typeof err === 'object' && err !== null && 'codeFormat' in err;

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
    mutationFn: async (value: string) => (await loadCodeCheck()).checkStudentCode(value),
    onSuccess: async (result) => {
      addUnlockedChild(result);
      setCode('');
      setError(null);
      toast({ title: PWA_MSG.accessGrantedTitle, description: PWA_MSG.childPhotosReady(result.student.name), variant: 'success' });
      await refreshAfterGrantChange(queryClient);
      onUnlocked(result);
    },
    onError: (err) => {
      if (isFormatError(err)) {
        setError(CODE_FORMAT_HINT);
        return;
      }
      const description = errorMessage(err, "We couldn't check that code. Please try again.");
      setError(description);
      toast({ title: PWA_MSG.accessDeniedTitle, description, variant: 'destructive' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(code);
  };

  return (
    <>
      <form onSubmit={submit} onFocus={preloadCodeCheck} onPointerDown={preloadCodeCheck} noValidate>
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
