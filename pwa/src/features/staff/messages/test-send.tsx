/** Send a test to myself (POST /api/schools/{id}/messages/test): any message a family can receive, to the signed-in staff member. */
import { useState, type FormEvent } from 'react';
import { TESTABLE_KINDS, type TestableKind } from '@contract/outreach';
import { OUTREACH_MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Card, CardBody } from '../../../components/ui/card';
import { SubmitButton } from '../../../components/ui/form-actions';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSendTest } from '../api/messages';

export function TestSendCard({ schoolId }: { schoolId: number }) {
  const [kind, setKind] = useState<TestableKind>(TESTABLE_KINDS[1]);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const send = useSendTest(schoolId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAnswer(null);
    send.mutate(kind, {
      onSuccess: (sent) => {
        setAnswer({ ok: true, text: sent.message });
        toast({ title: M.testSentTitle, description: sent.message, variant: 'success' });
      },
      onError: (err) => {
        const text = errorMessage(err, M.testFailed);
        setAnswer({ ok: false, text });
        toast({ title: PWA_MSG.errorTitle, description: text, variant: 'destructive' });
      },
    });
  };

  return (
    <Card>
      <CardBody className="stack">
        <h2>{M.testHeading}</h2>
        <p className="muted">{M.testHint}</p>
        <form onSubmit={submit} noValidate className="row test-send" aria-label={M.testHeading}>
          <div className="field">
            <Label htmlFor="test-kind">{M.testKind}</Label>
            <Select id="test-kind" value={kind} onChange={(event) => setKind(event.target.value as TestableKind)}>
              {TESTABLE_KINDS.map((option) => (
                <option key={option} value={option}>
                  {OUTREACH_MSG.kindLabels[option]}
                </option>
              ))}
            </Select>
          </div>
          <SubmitButton busy={send.isPending} busyLabel={M.sendingTest}>
            {M.sendTest}
          </SubmitButton>
        </form>
        <p role="status" className={answer ? (answer.ok ? 'alert alert-success' : 'alert alert-danger') : undefined}>
          {answer?.text ?? null}
        </p>
      </CardBody>
    </Card>
  );
}
