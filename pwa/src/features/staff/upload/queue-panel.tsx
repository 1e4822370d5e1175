import { useEffect, useState } from 'react';
import { REVIEW_MSG } from '@contract/messages';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { discardJob, retryJob } from '../../../lib/upload-queue';
import type { UploadBatchRow, UploadFileRow } from '../../../lib/upload-queue-db';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { refusedText, runUploads } from './upload-runner';
import type { QueueView } from './use-queue';

function fileState(file: UploadFileRow, batch: UploadBatchRow | undefined): { label: string; tone: BadgeTone } {
  if (file.state === 'done') return { label: 'Uploaded', tone: 'green' };
  if (file.state === 'failed') return { label: 'Refused', tone: 'red' };
  if (batch?.state === 'failed') return { label: 'Failed', tone: 'red' };
  if (batch?.state === 'unknown') return { label: 'Sending', tone: 'blue' };
  return { label: 'Waiting', tone: 'yellow' };
}

function PreviewThumb({ blob, name }: { blob: Blob | null; name: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob || blob.size === 0) return;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url ? <img src={url} alt={`Preview of ${name}`} className="queue-thumb" /> : <span className="queue-thumb" aria-hidden="true" />;
}

/** A batch the server refused as a whole (Retry sends it again); refused files alone are never sent again. */
const hasFailedBatch = (view: QueueView): boolean => [...view.batches.values()].some((batch) => batch.state === 'failed');

const jobStatus = (view: QueueView): string => {
  if (view.job.state === 'auth') return view.job.error ?? 'Sign in again to continue';
  if (view.job.state === 'failed' && !hasFailedBatch(view) && view.refused.length > 0) return REVIEW_MSG.uploadPartly(view.done, view.refused.length);
  if (view.job.state === 'failed') return `Some photos could not be uploaded: ${view.job.error ?? 'Failed to upload photos'}`;
  return navigator.onLine ? 'Uploading' : 'Waiting for the network — uploads resume by themselves';
};

/** What is waiting: per job the counts and, on demand, every file with its state. */
export function QueuePanel({ queue }: { queue: QueueView[] }) {
  const [discarding, setDiscarding] = useState<string | null>(null);
  if (queue.length === 0) return null;
  const waiting = queue.reduce((sum, view) => sum + view.job.total - view.done - view.refused.length, 0);
  return (
    <Card>
      <CardBody className="stack">
        <h3>Upload queue</h3>
        {waiting > 0 ? (
          <p aria-live="polite">
            {waiting} photo{waiting === 1 ? '' : 's'} waiting to upload. They are kept on this device until the server has them, even if the app is closed.
          </p>
        ) : null}
        {queue.map((view) => (
          <div key={view.job.id} className="queue-job">
            <div className="row between">
              <div>
                <strong>
                  {view.job.schoolName} · {view.job.albumName}
                </strong>
                <div className="muted">
                  {view.done} of {view.job.total} uploaded · {jobStatus(view)}
                </div>
              </div>
              <div className="row">
                {view.job.state === 'failed' && hasFailedBatch(view) ? (
                  <Button size="sm" onClick={() => void retryJob(view.job.id).then(runUploads)}>
                    Retry
                  </Button>
                ) : null}
                <Button size="sm" variant="outline" onClick={() => setDiscarding(view.job.id)}>
                  Discard
                </Button>
              </div>
            </div>
            {view.refused.length > 0 ? (
              <div className="alert alert-danger queue-refused" role="group" aria-label={`${REVIEW_MSG.uploadRejectedTitle}: ${view.job.albumName}`}>
                <strong>{REVIEW_MSG.uploadRejectedTitle}</strong>
                <ul>
                  {view.refused.map((file) => (
                    <li key={file.id}>{refusedText(file.name, file.error ?? '')}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <details>
              <summary>Show files</summary>
              <ul className="queue-files">
                {view.files.map((file) => {
                  const state = fileState(file, view.batches.get(file.batch));
                  return (
                    <li key={file.id}>
                      <PreviewThumb blob={file.preview} name={file.name} />
                      <span className="grow">{file.name}</span>
                      <Badge tone={state.tone}>{state.label}</Badge>
                    </li>
                  );
                })}
              </ul>
            </details>
          </div>
        ))}
      </CardBody>
      <ConfirmDialog
        open={discarding !== null}
        onOpenChange={(open) => !open && setDiscarding(null)}
        title="Discard these uploads?"
        description="Photos not uploaded yet are removed from this device. Photos already uploaded stay on the server."
        confirmLabel="Discard"
        onConfirm={() => {
          if (discarding) void discardJob(discarding);
          setDiscarding(null);
        }}
      />
    </Card>
  );
}
