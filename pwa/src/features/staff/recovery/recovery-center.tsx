import { STAFF_MSG } from '@contract/staff-screen-messages';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { RECOVERY_LIST_ITEMS } from '@contract/constants';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useCleanupMissing, useMissingPhotos } from '../api/photos-recovery';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { MissingList } from './missing-list';

export function RecoveryCenter() {
  const report = useMissingPhotos(true);
  const cleanup = useCleanupMissing();
  const [confirming, setConfirming] = useState(false);
  const missing = report.data?.missingPhotos ?? [];

  const runCleanup = () =>
    cleanup.mutate(undefined, {
      onSuccess: ({ deletedCount }) => toast({ title: STAFF_MSG.cleanupCompleteTitle, description: STAFF_MSG.cleanupComplete(deletedCount), variant: 'success' }),
      onError: (err) => toast({ title: STAFF_MSG.cleanupFailedTitle, description: errorMessage(err, STAFF_MSG.cleanupFailed), variant: 'destructive' }),
      onSettled: () => setConfirming(false),
    });

  return (
    <div className="stack">
      <div>
        <h1>Photo Recovery Center</h1>
        <Link to={paths.staffDashboard}>Back to Dashboard</Link>
      </div>
      <Tabs defaultValue="diagnostics">
        <TabsList aria-label="Recovery sections">
          <TabsTrigger value="diagnostics">Diagnostics</TabsTrigger>
          <TabsTrigger value="options">Recovery Options</TabsTrigger>
        </TabsList>
        <TabsContent value="diagnostics">
          <Card>
            <CardBody className="stack">
              <div className="row between">
                <h2>Diagnostics</h2>
                <Button variant="outline" size="sm" onClick={() => void report.refetch()} disabled={report.isFetching}>
                  {report.isFetching ? 'Checking...' : 'Check Again'}
                </Button>
              </div>
              {report.isPending ? <PageSpinner label="Checking photo files..." /> : null}
              {report.isError ? <p className="alert alert-danger">{errorMessage(report.error, 'The check could not be run.')}</p> : null}
              {report.data ? (
                <>
                  <p>
                    {report.data.totalInDatabase} photos in the database, <strong>{missing.length}</strong> with a missing file.
                  </p>
                  {missing.length === 0 ? <p className="alert alert-success">Every photo has its file.</p> : <MissingList photos={missing} limit={RECOVERY_LIST_ITEMS} />}
                </>
              ) : null}
            </CardBody>
          </Card>
        </TabsContent>
        <TabsContent value="options">
          <div className="grid grid-2">
            <Card>
              <CardBody className="stack">
                <h2>Restore from your copies</h2>
                <p>Upload the original files again; each is matched to its missing photo by file name and its previews are rebuilt.</p>
                <Link to={paths.staffRestore} className={buttonClass('primary')}>
                  Open Photo Restoration
                </Link>
              </CardBody>
            </Card>
            <Card>
              <CardBody className="stack">
                <h2>Remove missing photos</h2>
                <p>Deletes the {missing.length} photo record(s) whose files are gone, so galleries no longer show broken images.</p>
                <Button variant="destructive" disabled={missing.length === 0 || cleanup.isPending} onClick={() => setConfirming(true)}>
                  Clean Up Missing Photos
                </Button>
              </CardBody>
            </Card>
          </div>
        </TabsContent>
      </Tabs>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove missing photos?"
        description={`${missing.length} photo record(s) without a file will be deleted from the database. This cannot be undone.`}
        confirmLabel="Remove Photos"
        busy={cleanup.isPending}
        onConfirm={runCleanup}
      />
    </div>
  );
}
