/**
 * How families of this school get in: the school password, or each child's private code. A school
 * with no password on record (one created for codes) is asked for one before it switches to the
 * school password (docs/access.md, "School password").
 */
import { useState, type FormEvent } from 'react';
import { ACCESS_MODES, ACCESS_MODE_LABELS, type AccessMode } from '@contract/student-codes';
import { MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { newPassword } from '@contract/fields';
import type { StaffSchool } from '@contract/schools';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { SubmitButton } from '../../../components/ui/form-actions';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateSchool } from '../api/schools';
import { useSession } from '../../../lib/session';

export function AccessModeControl({ school }: { school: Pick<StaffSchool, 'id' | 'name' | 'accessMode' | 'hasPassword'> }) {
  const update = useUpdateSchool(school.id);
  // Only an admin switches the mode (docs/accounts.md, "What a photographer may not do").
  const isAdmin = useSession().staffUser?.role === 'admin';
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);

  const change = (next: AccessMode, withPassword?: string) =>
    update.mutate(
      { accessMode: next, ...(withPassword === undefined ? {} : { password: withPassword }) },
      {
        onSuccess: () => {
          setAsking(false);
          setPassword('');
          toast({
            title: STAFF_MSG.accessUpdatedTitle,
            description: next === 'student_codes' ? STAFF_MSG.accessCodes : STAFF_MSG.accessPassword,
            variant: 'success',
          });
        },
        onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, STAFF_MSG.accessFailed), variant: 'destructive' }),
      },
    );

  const choose = (next: AccessMode) => {
    if (next === 'school_password' && !school.hasPassword) {
      setPasswordError(null);
      setAsking(true);
      return;
    }
    change(next);
  };

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    const parsed = newPassword.safeParse(password);
    if (!parsed.success) {
      setPasswordError(password === '' ? MSG.schoolPasswordRequired : (parsed.error.issues[0]?.message ?? MSG.passwordMin));
      return;
    }
    change('school_password', parsed.data);
  };

  return (
    <div className="field" style={{ minWidth: '18rem', maxWidth: '28rem', marginBottom: 0 }}>
      <Label htmlFor="school-access-mode">How families get in</Label>
      <Select id="school-access-mode" value={school.accessMode} disabled={update.isPending || !isAdmin} onChange={(event) => choose(event.target.value as AccessMode)}>
        {ACCESS_MODES.map((option) => (
          <option key={option} value={option}>
            {ACCESS_MODE_LABELS[option]}
          </option>
        ))}
      </Select>
      <Dialog open={asking} onOpenChange={setAsking} title={STAFF_MSG.accessNeedsPasswordTitle} description={STAFF_MSG.accessNeedsPassword(school.name)} size="sm">
        <form onSubmit={submitPassword} noValidate className="stack">
          <Field id="school-access-password" label="School password" type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} error={passwordError} />
          <div className="row">
            <SubmitButton busy={update.isPending} busyLabel="Saving...">
              {STAFF_MSG.accessSetPassword}
            </SubmitButton>
            <Button variant="outline" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
