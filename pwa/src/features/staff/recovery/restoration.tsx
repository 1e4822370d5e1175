import { useState } from 'react';
import { Link } from 'react-router-dom';
import { RESTORATION_LIST_ITEMS, UPLOAD_BATCH_SIZE } from '@contract/constants';
import { HARDENING_MSG, KEEP_PAID_MSG, MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import type { RestoreResponse } from '@contract/photos';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { PageSpinner } from '../../../components/ui/spinner';
import { SectionTabs } from '../../../components/ui/tabs';
import { toast } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useMissingPhotos, useRestorePhotos } from '../api/photos-recovery';
import { Dropzone } from '../upload/dropzone';
import { addToSelection } from '../upload/limits';
import { MissingList } from './missing-list';

export function Restoration() {
  const report = useMissingPhotos(true);
  const restore = useRestorePhotos();
  const [files, setFiles] = useState<File[]>([]);
  const [results, setResults] = useState<RestoreResponse['results']>([]);
  const [busy, setBusy] = useState(false);
  const [chosenClass, setChosenClass] = useState('');
  // The classes with missing photos, each once: a restore matches files within one class only.
  const classes = [...new Map((report.data?.missingPhotos ?? []).map((photo) => [photo.albumId, `${photo.schoolName} · ${photo.albumName}`])).entries()];
  const albumId = Number(chosenClass || (classes.length === 1 ? classes[0]?.[0] : 0));

  const add = (incoming: File[]) => {
    const result = addToSelection(files, incoming);
    for (const notice of result.notices) toast({ ...notice, variant: 'destructive' });
    setFiles(result.selection);
  };

  /** One batch of files per request, as uploads do: the server takes at most one batch at a time. */
  const run = async () => {
    if (files.length === 0) return toast({ title: STAFF_MSG.noFilesSelectedTitle, description: MSG.noFilesSelected, variant: 'destructive' });
    if (!albumId) return toast({ title: STAFF_MSG.restorationFailedTitle, description: KEEP_PAID_MSG.restoreClassRequired, variant: 'destructive' });
    setBusy(true);
    const collected: RestoreResponse['results'] = [];
    try {
      for (let start = 0; start < files.length; start += UPLOAD_BATCH_SIZE) {
        const response = await restore.mutateAsync({ albumId, files: files.slice(start, start + UPLOAD_BATCH_SIZE) });
        collected.push(...response.results);
      }
      setFiles([]);
      const restored = collected.filter((result) => result.success).length;
      toast({ title: STAFF_MSG.restorationCompleteTitle, description: STAFF_MSG.restorationComplete(restored, collected.length), variant: restored > 0 ? 'success' : 'default' });
    } catch (err) {
      toast({
        title: STAFF_MSG.restorationFailedTitle,
        description: err instanceof ApiError ? HARDENING_MSG.restoreHttpFailed(err.statusText || String(err.status)) : errorMessage(err, STAFF_MSG.restoreFailed),
        variant: 'destructive',
      });
    } finally {
      setResults(collected);
      setBusy(false);
    }
  };

  const missing = report.data?.missingPhotos ?? [];
  return (
    <div className="stack">
      <div>
        <h1>Photo Restoration</h1>
        <Link to={paths.staffRecovery}>Back to Photo Recovery Center</Link>
      </div>
      <SectionTabs
        label="Restoration sections"
        sections={[
          {
            value: 'missing',
            label: 'Missing Photos',
            content: (
              <>
                <Card>
                  <CardBody className="stack">
                    <h2>Missing Photos</h2>
                    {report.isPending ? <PageSpinner label="Checking photo files..." /> : null}
                    {report.isError ? <p className="alert alert-danger">{errorMessage(report.error, 'The check could not be run.')}</p> : null}
                    {report.data ? (
                      missing.length === 0 ? (
                        <p className="alert alert-success">No photos are missing their files.</p>
                      ) : (
                        <>
                          <p>
                            {missing.length} of {report.data.totalInDatabase} photos are missing their files.
                          </p>
                          <MissingList photos={missing} limit={RESTORATION_LIST_ITEMS} />
                        </>
                      )
                    ) : null}
                  </CardBody>
                </Card>
              </>
            ),
          },
          {
            value: 'restore',
            label: 'Restore Photos',
            content: (
              <>
                <Card>
                  <CardBody className="stack">
                    <h2>Restore Photos</h2>
                    <p className="muted">Choose the original files; each is matched to a missing photo by its file name.</p>
                    <div className="field">
                      <Label htmlFor="restore-class">{KEEP_PAID_MSG.restoreClassLabel}</Label>
                      <Select id="restore-class" value={albumId ? String(albumId) : ''} onChange={(event) => setChosenClass(event.target.value)} disabled={busy} aria-describedby="restore-class-hint">
                        <option value="">{KEEP_PAID_MSG.restoreClassRequired}</option>
                        {classes.map(([id, name]) => (
                          <option key={id} value={String(id)}>
                            {name}
                          </option>
                        ))}
                      </Select>
                      <p id="restore-class-hint" className="muted" style={{ margin: 0, fontSize: '0.875rem' }}>
                        {KEEP_PAID_MSG.restoreClassHint}
                      </p>
                    </div>
                    <Dropzone onFiles={add} disabled={busy} />
                    {files.length > 0 ? <p>{files.length} file(s) ready to restore.</p> : null}
                    <Button onClick={() => void run()} disabled={busy || files.length === 0 || !albumId}>
                      {busy ? 'Restoring...' : 'Restore Photos'}
                    </Button>
                    {results.length > 0 ? (
                      <ul className="staff-list" aria-label="Restoration results">
                        {results.map((result, index) => (
                          <li key={`${result.filename}-${index}`} className="row between">
                            <span>{result.filename}</span>
                            <span className="row">
                              <Badge tone={result.success ? 'green' : 'red'}>{result.success ? 'Restored' : 'Not restored'}</Badge>
                              <span className="muted">{result.message}</span>
                            </span>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </CardBody>
                </Card>
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
