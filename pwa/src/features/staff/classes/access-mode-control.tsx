/** How families of this school get in: the school password, or each child's private code. */
import { ACCESS_MODES, ACCESS_MODE_LABELS, type AccessMode } from '@contract/student-codes';
import { PWA_MSG } from '@contract/messages';
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
            title: 'Access Updated',
            description: next === 'student_codes' ? 'Families now need their child\'s code; the school password no longer opens the gallery.' : 'The school password opens the whole gallery again.',
            variant: 'success',
          }),
        onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, 'Failed to change how families get in'), variant: 'destructive' }),
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
