/** How families of this school get in: the school password, or each child's private code. */
import { ACCESS_MODES, ACCESS_MODE_LABELS, type AccessMode } from '@contract/student-codes';
import { PWA_MSG, STAFF_MSG } from '@contract/messages';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateSchool } from '../api/schools';

export function AccessModeControl({ schoolId, mode }: { schoolId: number; mode: AccessMode }) {
  const update = useUpdateSchool(schoolId);
  const change = (next: AccessMode) =>
    update.mutate(
      { accessMode: next },
      {
        onSuccess: () =>
          toast({
            title: STAFF_MSG.accessUpdatedTitle,
            description: next === 'student_codes' ? STAFF_MSG.accessCodes : STAFF_MSG.accessPassword,
            variant: 'success',
          }),
        onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, STAFF_MSG.accessFailed), variant: 'destructive' }),
      },
    );
  return (
    <div className="field" style={{ minWidth: '18rem', maxWidth: '28rem', marginBottom: 0 }}>
      <Label htmlFor="school-access-mode">How families get in</Label>
      <Select id="school-access-mode" value={mode} disabled={update.isPending} onChange={(event) => change(event.target.value as AccessMode)}>
        {ACCESS_MODES.map((option) => (
          <option key={option} value={option}>
            {ACCESS_MODE_LABELS[option]}
          </option>
        ))}
      </Select>
    </div>
  );
}
