import { useState } from 'react';
import { CLASS_PAGE_MSG } from '@contract/class-page';
import { MSG, PWA_MSG } from '@contract/messages';
import type { StaffSchool } from '@contract/schools';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCreateClass } from '../api/albums';

export interface ClassChoice {
  schoolId: number | null;
  albumId: number | null;
}

/** School, then an existing class or a new one (a new class is selected at once). */
export function ClassPicker({ schools, value, onChange }: { schools: StaffSchool[]; value: ClassChoice; onChange: (next: ClassChoice) => void }) {
  const [mode, setMode] = useState<'existing' | 'new'>('existing');
  const [name, setName] = useState('');
  const create = useCreateClass();
  const school = schools.find((candidate) => candidate.id === value.schoolId);

  const createClass = () => {
    if (!value.schoolId) return toast({ title: PWA_MSG.errorTitle, description: MSG.selectSchoolFirst, variant: 'destructive' });
    if (!name.trim()) return toast({ title: PWA_MSG.errorTitle, description: MSG.classNameRequired, variant: 'destructive' });
    create.mutate(
      { name: name.trim(), schoolId: value.schoolId },
      {
        onSuccess: (album) => {
          toast({ title: PWA_MSG.classCreatedTitle, description: `${album.name} created successfully. You can now upload photos.`, variant: 'success' });
          onChange({ schoolId: album.schoolId, albumId: album.id });
          setName('');
          setMode('existing');
        },
        onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.createClassFailed), variant: 'destructive' }),
      },
    );
  };

  return (
    <div className="grid grid-2">
      <div className="field">
        <Label htmlFor="upload-school">School</Label>
        <Select id="upload-school" value={value.schoolId ?? ''} onChange={(event) => onChange({ schoolId: event.target.value ? Number(event.target.value) : null, albumId: null })}>
          <option value="">Select a school</option>
          {schools.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </Select>
      </div>
      <fieldset className="field staff-fieldset">
        <legend className="label">Class</legend>
        <div className="row" role="radiogroup" aria-label="Class choice">
          <label className="radio">
            <input type="radio" name="class-mode" checked={mode === 'existing'} onChange={() => setMode('existing')} /> Existing class
          </label>
          <label className="radio">
            <input type="radio" name="class-mode" checked={mode === 'new'} onChange={() => setMode('new')} /> New class
          </label>
        </div>
        {mode === 'existing' ? (
          <Select aria-label="Class" value={value.albumId ?? ''} disabled={!school} onChange={(event) => onChange({ ...value, albumId: event.target.value ? Number(event.target.value) : null })}>
            <option value="">{school ? 'Select a class' : 'Select a school first'}</option>
            {school?.albums.map((album) => (
              <option key={album.id} value={album.id}>
                {album.name} ({CLASS_PAGE_MSG.photoCount(album.photoCount)})
              </option>
            ))}
          </Select>
        ) : (
          <div className="row">
            <Input aria-label="New class name" placeholder="e.g. Grade 1A" value={name} onChange={(event) => setName(event.target.value)} className="grow" />
            <Button onClick={createClass} disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Class'}
            </Button>
          </div>
        )}
      </fieldset>
    </div>
  );
}
