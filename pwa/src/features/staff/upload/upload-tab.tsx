import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useLiveQuery } from 'dexie-react-hooks';
import type { StaffSchool } from '@contract/schools';
import { UPLOAD_BATCH_SIZE } from '@contract/constants';
import { CATALOGUE_ROUTE_MSG, MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { getStaffToken } from '../../../lib/storage';
import { enqueueUpload } from '../../../lib/upload-queue';
import { uploadDb } from '../../../lib/upload-queue-db';
import { useStaffSchools } from '../api/schools';
import { ClassPicker, type ClassChoice } from './class-picker';
import { Dropzone } from './dropzone';
import { addToSelection, uploadProgress } from './limits';
import { QueuePanel } from './queue-panel';
import { MatchingSummaryCard } from './matching-summary';
import { runUploads, useRunnerState } from './upload-runner';
import { usePreviews, type Selected } from './use-previews';
import { useQueue } from './use-queue';

let nextId = 0;

/**
 * The school and class the pickers show: the ones in the address (?school=&class=, which the class
 * page's "Upload to this class" sets and the reload after an upload keeps), else the class of the
 * latest upload on this device. A class that no longer exists is not chosen.
 */
export function chosenClass(schools: readonly StaffSchool[], params: URLSearchParams, lastAlbumId: number | null): ClassChoice {
  const asked = { schoolId: Number(params.get('school')) || null, albumId: Number(params.get('class')) || null };
  if (params.has('school') || params.has('class')) {
    const school = schools.find((candidate) => candidate.id === asked.schoolId || (asked.schoolId === null && candidate.albums.some((album) => album.id === asked.albumId)));
    if (!school) return { schoolId: null, albumId: null };
    return { schoolId: school.id, albumId: school.albums.some((album) => album.id === asked.albumId) ? asked.albumId : null };
  }
  const last = lastAlbumId === null ? undefined : schools.find((candidate) => candidate.albums.some((album) => album.id === lastAlbumId));
  return last ? { schoolId: last.id, albumId: lastAlbumId } : { schoolId: null, albumId: null };
}

export function UploadTab() {
  const schools = useStaffSchools();
  const queue = useQueue() ?? [];
  const runner = useRunnerState();
  const [params, setParams] = useSearchParams();
  // The class of the latest upload session on this device (undefined while it is read).
  const lastAlbumId = useLiveQuery(async () => {
    const sessions = await uploadDb().sessions.toArray();
    return sessions.sort((a, b) => b.updatedAt - a.updatedAt)[0]?.albumId ?? null;
  }, []);
  const choice = chosenClass(schools.data ?? [], params, lastAlbumId ?? null);
  const setChoice = (next: ClassChoice) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        for (const [key, value] of [['school', next.schoolId], ['class', next.albumId]] as const) {
          if (value === null) updated.delete(key);
          else updated.set(key, String(value));
        }
        // An explicit "no class" stays chosen instead of falling back to the latest upload's class.
        if (next.schoolId === null && next.albumId === null) updated.set('school', '');
        return updated;
      },
      { replace: true },
    );
  const [selection, setSelection] = useState<Selected[]>([]);
  const [saving, setSaving] = useState(false);
  const previews = usePreviews(selection);

  const addFiles = (files: File[]) => {
    const result = addToSelection(selection.map((item) => item.file), files);
    for (const notice of result.notices) toast({ ...notice, variant: 'destructive' });
    const kept = new Set(selection.map((item) => item.file));
    const added = result.selection.filter((file) => !kept.has(file)).map((file) => ({ id: `sel-${(nextId += 1)}`, file }));
    if (added.length > 0) setSelection((current) => [...current, ...added]);
  };

  const upload = async () => {
    if (selection.length === 0) return toast({ title: STAFF_MSG.noFilesSelectedTitle, description: MSG.noFilesSelected, variant: 'destructive' });
    const school = schools.data?.find((candidate) => candidate.id === choice.schoolId);
    const album = school?.albums.find((candidate) => candidate.id === choice.albumId);
    if (!school || !album) return toast({ title: STAFF_MSG.selectionRequiredTitle, description: CATALOGUE_ROUTE_MSG.selectClassFirst, variant: 'destructive' });
    const token = getStaffToken();
    if (!token) return toast({ title: PWA_MSG.uploadFailedTitle, description: MSG.notLoggedIn, variant: 'destructive' });
    setSaving(true);
    try {
      const { skipped } = await enqueueUpload({
        albumId: album.id,
        albumName: album.name,
        schoolName: school.name,
        token,
        files: selection.map((item) => item.file),
        // Previews made so far go with the queue, so the waiting list shows them after a restart.
        previews: selection.map((item) => previews.blobs.get(item.id)),
      });
      if (skipped > 0) toast({ title: STAFF_MSG.alreadyQueuedTitle, description: STAFF_MSG.alreadyQueued(skipped) });
      setSelection([]);
      void runUploads();
    } catch (err) {
      toast({ title: PWA_MSG.uploadFailedTitle, description: err instanceof Error && err.name === 'QuotaExceededError' ? 'This device is out of storage space for the upload queue.' : 'Failed to upload photos', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  if (schools.isPending || lastAlbumId === undefined) return <PageSpinner label="Loading schools..." />;

  const active = queue.find((view) => view.job.state === 'active');
  const progress = runner.phase === 'complete' || runner.phase === 'partial' ? 100 : runner.phase === 'failed' ? 0 : active ? uploadProgress(active.done, active.job.total) : null;

  return (
    <div className="stack">
      <Card>
        <CardBody className="stack">
          <h2>Upload Photos</h2>
          <p className="muted">Choose a school and class, then add photos. Photos are uploaded in batches of {UPLOAD_BATCH_SIZE}; if the connection drops, the upload continues by itself when it returns.</p>
          <ClassPicker schools={schools.data ?? []} value={choice} onChange={setChoice} />
          <Dropzone onFiles={addFiles} />
          {selection.length > 0 ? (
            <div className="stack">
              <div className="row between">
                <strong>{selection.length} photo(s) selected</strong>
                <Button variant="ghost" size="sm" onClick={() => setSelection([])}>
                  Clear selection
                </Button>
              </div>
              <ul className="selection-grid">
                {selection.map((item) => (
                  <li key={item.id} className="selection-tile">
                    {previews.urls.get(item.id) ? <img src={previews.urls.get(item.id)} alt={`Preview of ${item.file.name}`} /> : <span className="selection-placeholder" aria-hidden="true" />}
                    <span className="selection-name">{item.file.name}</span>
                    <Button variant="ghost" size="sm" aria-label={`Remove ${item.file.name}`} onClick={() => setSelection((current) => current.filter((other) => other.id !== item.id))}>
                      Remove
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <Button onClick={() => void upload()} disabled={saving}>
            {saving ? 'Saving...' : `Upload ${selection.length > 0 ? `${selection.length} ` : ''}Photos`}
          </Button>
          {progress !== null ? (
            <div className="stack-tight">
              <div className="progress" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
                <div className="progress-bar" style={{ width: `${progress}%` }} />
              </div>
              <span className="muted" aria-live="polite">
                {progress}%{runner.phase === 'waiting' && runner.message ? ` · ${runner.message}` : ''}
              </span>
            </div>
          ) : null}
          <MatchingSummaryCard
            placeOf={(albumId) => {
              const school = schools.data?.find((candidate) => candidate.albums.some((album) => album.id === albumId));
              const album = school?.albums.find((candidate) => candidate.id === albumId);
              return school && album ? { schoolId: school.id, schoolName: school.name, albumName: album.name } : null;
            }}
          />
        </CardBody>
      </Card>
      <QueuePanel queue={queue} />
    </div>
  );
}
