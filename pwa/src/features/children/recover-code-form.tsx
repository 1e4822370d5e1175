/**
 * "Lost your code? Get it by SMS" (docs/sms.md, "Codes recovered by phone"): the parent types the
 * mobile number the school has; the server sends the children's code links by SMS to a number on
 * a class list and answers the same either way, so this form says the same either way too. Loaded
 * only when asked for (the code form imports it lazily): no phone parser here, the server checks
 * the number and its 400 names the field.
 */
import { useId, useState, type FormEvent } from 'react';
import { CODE_RECOVERY_MSG } from '@contract/code-recovery';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { ApiError, apiRequest, errorMessage } from '../../lib/api-client';

export interface RecoverCodeFormProps {
  /** Back to the code form. */
  onClose: () => void;
}

export default function RecoverCodeForm({ onClose }: RecoverCodeFormProps) {
  const id = useId();
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (phone.trim() === '') {
      setError(CODE_RECOVERY_MSG.phoneRequired);
      return;
    }
    setSending(true);
    setError(null);
    try {
      const result = await apiRequest<{ message: string }>('/api/students/recover', { method: 'POST', body: { phone }, auth: 'none' });
      setAnswer(result.message || CODE_RECOVERY_MSG.answer);
    } catch (err) {
      setError(err instanceof ApiError && err.fieldErrors?.phone ? err.fieldErrors.phone : errorMessage(err, CODE_RECOVERY_MSG.failed));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="recover-code" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{CODE_RECOVERY_MSG.title}</h3>
      {answer ? (
        <>
          <p className="alert alert-success" role="status">
            {answer}
          </p>
          <p className="muted">{CODE_RECOVERY_MSG.answerHint}</p>
          <Button type="button" variant="outline" block onClick={onClose}>
            {CODE_RECOVERY_MSG.close}
          </Button>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p className="muted">{CODE_RECOVERY_MSG.intro}</p>
          <Field
            id={`${id}-phone`}
            label={CODE_RECOVERY_MSG.phoneLabel}
            error={error}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder={CODE_RECOVERY_MSG.phonePlaceholder}
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
          />
          <div className="row">
            <Button type="submit" disabled={sending}>
              {sending ? CODE_RECOVERY_MSG.sending : CODE_RECOVERY_MSG.submit}
            </Button>
            <Button type="button" variant="ghost" onClick={onClose}>
              {CODE_RECOVERY_MSG.close}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
