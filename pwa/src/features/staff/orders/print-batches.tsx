import { PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCreatePrintBatch, usePrintBatches, usePrintReadiness } from '../api/print-batches';
import { PrintBatchCard } from './print-batch-card';

/**
 * The "Print batches" view of order management: per school, the paid orders with prints waiting
 * for the lab and a button to batch them; then every batch, newest first.
 */
export function PrintBatches() {
  const ready = usePrintReadiness();
  const batches = usePrintBatches();
  const create = useCreatePrintBatch();

  const createFor = (schoolId: number, schoolName: string) =>
    create.mutate(schoolId, {
      onSuccess: (batch) =>
        toast({
          title: STAFF_MSG.printBatchCreatedTitle,
          description: STAFF_MSG.printBatchCreated(batch.id, schoolName, batch.orderCount, batch.printCount),
          variant: 'success',
        }),
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.createPrintBatchFailed), variant: 'destructive' }),
    });

  return (
    <div className="stack">
      <Card>
        <CardBody className="stack">
          <div>
            <h2>Ready to print</h2>
            <p className="muted">
              Paid orders with prints that are in no batch yet. A batch takes all of a school's orders, moves them to At Printers and gives you the lab's
              ZIP, a packing list per class and envelope labels.
            </p>
          </div>
          {ready.isPending ? <PageSpinner label="Loading schools..." /> : null}
          {ready.isError ? <p className="alert alert-danger">What is ready to print could not be loaded.</p> : null}
          {ready.data?.length === 0 ? <p className="muted">No schools yet.</p> : null}
          <ul className="staff-list" aria-label="Orders ready to print per school">
            {ready.data?.map((row) => (
              <li key={row.schoolId} className="row between">
                <div className="stack-tight">
                  <strong>{row.schoolName}</strong>
                  <span className="muted">{row.orderCount === 0 ? 'Nothing waiting to print' : `${row.orderCount} order(s) ready · ${row.printCount} print(s)`}</span>
                </div>
                <Button
                  size="sm"
                  disabled={row.orderCount === 0 || create.isPending}
                  onClick={() => createFor(row.schoolId, row.schoolName)}
                  aria-label={`Create print batch for ${row.schoolName}`}
                >
                  {create.isPending && create.variables === row.schoolId ? 'Creating...' : 'Create print batch'}
                </Button>
              </li>
            ))}
          </ul>
        </CardBody>
      </Card>
      <h2>Print batches</h2>
      {batches.isPending ? <PageSpinner label="Loading print batches..." /> : null}
      {batches.isError ? <p className="alert alert-danger">Print batches could not be loaded.</p> : null}
      {batches.data?.length === 0 ? <p className="muted">No print batches yet.</p> : null}
      <ul className="batch-list" aria-label="Print batches">
        {batches.data?.map((batch) => (
          <PrintBatchCard key={batch.id} batch={batch} />
        ))}
      </ul>
    </div>
  );
}
