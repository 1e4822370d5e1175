import { formatDate } from '@contract/format';
import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ORDER_STATUS_LABELS } from '@contract/constants';
import { printBatchFileName, type PrintBatch, type PrintBatchFile } from '@contract/print-batches';
import { PRINT_BATCH_MSG, PWA_MSG } from '@contract/messages';
import { ORDER_PACKAGE_STAFF_MSG, STAFF_MSG } from '@contract/staff-screen-messages';
import { SOLD_PHOTO_MSG } from '@contract/withdrawn-photos';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { fetchBatchFile, printBatchQuery, requestBatchLink, useUpdatePrintBatchStatus } from '../api/print-batches';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { STATUS_TONE } from '../common/status';
import { canStreamToDisk, formatBytes, pickZipFile, saveBlob, startBrowserDownload, streamIntoFile } from './save-file';

type NextStatus = 'ready_for_delivery' | 'delivered';

interface ZipProgress {
  received: number;
  /** The originals' total: the ZIP is a little larger (headers and the order sheet). */
  expected: number;
}

const CONFIRM: Record<NextStatus, { title: string; description: (batch: PrintBatch) => string; label: string }> = {
  ready_for_delivery: {
    title: STAFF_MSG.markReadyTitle,
    description: (batch) => `The prints of batch #${batch.id} are back from the lab. Its ${batch.orderCount} order(s) move to Ready For Delivery, and parents see that in My Orders.`,
    label: 'Mark Ready for Delivery',
  },
  delivered: {
    title: STAFF_MSG.markDeliveredTitle,
    description: (batch) => `Batch #${batch.id} has been handed over at ${batch.schoolName}. Its ${batch.orderCount} order(s) move to Delivered, and parents see that in My Orders.`,
    label: 'Mark Delivered',
  },
};

/** One batch: its status and counts, its three files, the next status, and its orders. */
export function PrintBatchCard({ batch }: { batch: PrintBatch }) {
  const client = useQueryClient();
  const update = useUpdatePrintBatchStatus();
  const [confirming, setConfirming] = useState<NextStatus | null>(null);
  const [zip, setZip] = useState<ZipProgress | null>(null);
  const [pdf, setPdf] = useState<PrintBatchFile | null>(null);
  const [showOrders, setShowOrders] = useState(false);
  const download = useRef<AbortController | null>(null);
  const label = `Batch #${batch.id}`;

  const downloadPdf = async (file: PrintBatchFile) => {
    const name = printBatchFileName(batch.id, batch.schoolName, file);
    setPdf(file);
    try {
      const response = await fetchBatchFile(batch.id, file);
      saveBlob(await response.blob(), name);
      toast({ title: PWA_MSG.downloadCompleteTitle, description: `${name} has been downloaded.`, variant: 'success' });
    } catch (err) {
      toast({ title: PWA_MSG.downloadFailedTitle, description: errorMessage(err, `${name} could not be downloaded. Please try again.`), variant: 'destructive' });
    } finally {
      setPdf(null);
    }
  };

  /**
   * Straight into a file the photographer picks, with progress, where the browser allows it;
   * otherwise the browser's download manager fetches it from a short-lived link and shows the
   * progress itself. The ZIP is never held in the page's memory.
   */
  const downloadZip = async () => {
    const name = printBatchFileName(batch.id, batch.schoolName, 'files.zip');
    try {
      if (!canStreamToDisk()) {
        const link = await requestBatchLink(batch.id, 'files.zip');
        startBrowserDownload(link.url, name);
        toast({ title: STAFF_MSG.downloadStartedTitle, description: STAFF_MSG.downloadStarted(name) });
        return;
      }
      const file = await pickZipFile(name);
      if (!file) return;
      const abort = new AbortController();
      download.current = abort;
      try {
        const { originalsBytes } = await client.fetchQuery(printBatchQuery(batch.id));
        setZip({ received: 0, expected: originalsBytes });
        const response = await fetchBatchFile(batch.id, 'files.zip', abort.signal);
        let shown = 0;
        await streamIntoFile(response, file, (received) => {
          // A re-render per network chunk would cost more than the download: once a percent is plenty.
          const percentNow = Math.floor((received / Math.max(1, originalsBytes)) * 100);
          if (percentNow === shown) return;
          shown = percentNow;
          setZip({ received, expected: originalsBytes });
        });
      } catch (err) {
        await file.abort(err).catch(() => undefined);
        throw err;
      }
      toast({ title: PWA_MSG.downloadCompleteTitle, description: `${name} has been saved.`, variant: 'success' });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') {
        toast({ title: STAFF_MSG.downloadCancelledTitle, description: STAFF_MSG.notSaved(name) });
      } else {
        toast({ title: PWA_MSG.downloadFailedTitle, description: errorMessage(err, `${name} could not be downloaded. Please try again.`), variant: 'destructive' });
      }
    } finally {
      download.current = null;
      setZip(null);
    }
  };

  const confirm = () => {
    if (!confirming) return;
    const status = confirming;
    update.mutate(
      { id: batch.id, status },
      {
        onSuccess: () => toast({ title: STAFF_MSG.batchUpdatedTitle, description: STAFF_MSG.batchStatusNow(batch.id, ORDER_STATUS_LABELS[status]), variant: 'success' }),
        onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, STAFF_MSG.updatePrintBatchFailed), variant: 'destructive' }),
        onSettled: () => setConfirming(null),
      },
    );
  };

  const percent = zip ? Math.min(99, Math.floor((zip.received / Math.max(1, zip.expected)) * 100)) : 0;
  return (
    <li className="card batch-card" aria-label={label}>
      <div className="row between">
        <div className="stack-tight">
          <h3>
            {label} · {batch.schoolName}
          </h3>
          <span className="muted">
            {formatDate(batch.createdAt, 'short')} · {batch.orderCount} order(s) · {batch.printCount} print(s)
          </span>
        </div>
        <Badge tone={STATUS_TONE[batch.status]}>{ORDER_STATUS_LABELS[batch.status]}</Badge>
      </div>
      {/* A sold photo of the batch was moved or withheld since it was made (docs/statuses.md, "Changed packing lists and labels"). */}
      {batch.documentsChangedAt ? <p className="alert alert-warn batch-changed">{SOLD_PHOTO_MSG.documentsChanged(formatDate(batch.documentsChangedAt, 'long'))}</p> : null}
      <div className="row batch-actions">
        <Button variant="outline" size="sm" onClick={downloadZip} disabled={zip !== null} aria-label={`Download ZIP of batch #${batch.id}`}>
          Download ZIP
        </Button>
        <Button variant="outline" size="sm" onClick={() => downloadPdf('packing-list.pdf')} disabled={pdf !== null} aria-label={`Packing list of batch #${batch.id}`}>
          {pdf === 'packing-list.pdf' ? 'Preparing...' : 'Packing list'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => downloadPdf('labels.pdf')} disabled={pdf !== null} aria-label={`Labels of batch #${batch.id}`}>
          {pdf === 'labels.pdf' ? 'Preparing...' : 'Labels'}
        </Button>
        {batch.status === 'at_printers' ? (
          <Button size="sm" onClick={() => setConfirming('ready_for_delivery')} aria-label={`Mark batch #${batch.id} ready for delivery`}>
            Mark ready for delivery
          </Button>
        ) : null}
        {batch.status !== 'delivered' ? (
          <Button size="sm" variant={batch.status === 'at_printers' ? 'secondary' : 'primary'} onClick={() => setConfirming('delivered')} aria-label={`Mark batch #${batch.id} delivered`}>
            Mark delivered
          </Button>
        ) : null}
        <Button variant="ghost" size="sm" onClick={() => setShowOrders((shown) => !shown)} aria-expanded={showOrders}>
          {showOrders ? 'Hide orders' : 'Show orders'}
        </Button>
      </div>
      {zip ? (
        <div className="stack-tight">
          <div className="progress" role="progressbar" aria-label={`Download progress of batch #${batch.id}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <div className="progress-bar" style={{ width: `${percent}%` }} />
          </div>
          <div className="row between">
            <span className="muted" aria-live="polite">
              {formatBytes(zip.received)} of about {formatBytes(zip.expected)}
            </span>
            <Button variant="ghost" size="sm" onClick={() => download.current?.abort()}>
              Cancel download
            </Button>
          </div>
        </div>
      ) : null}
      <p className="muted" style={{ margin: 0, fontSize: '0.875rem' }}>
        {PRINT_BATCH_MSG.labelStockNote(PRINT_BATCH_MSG.labelStock)}
      </p>
      <LeftOutLines id={batch.id} />
      {showOrders ? <BatchOrders id={batch.id} /> : null}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming ? CONFIRM[confirming].title : ''}
        description={confirming ? CONFIRM[confirming].description(batch) : ''}
        confirmLabel={confirming ? CONFIRM[confirming].label : ''}
        confirmVariant="primary"
        busy={update.isPending}
        onConfirm={confirm}
      />
    </li>
  );
}

/**
 * Print lines the batch does not print, with why (a do-not-publish child, a photo erased or no
 * longer the ordering child's): staff check each order and refund the line. Nothing when none.
 */
function LeftOutLines({ id }: { id: number }) {
  const detail = useQuery(printBatchQuery(id));
  const lines = detail.data?.leftOut ?? [];
  if (lines.length === 0) return null;
  return (
    <div className="alert alert-warn stack-tight" role="region" aria-label={`Left out of batch #${id}`}>
      <strong>{PRINT_BATCH_MSG.leftOutTitle(lines.length)}</strong>
      <span>{PRINT_BATCH_MSG.leftOutIntro}</span>
      <ul>
        {lines.map((line) => (
          <li key={line.itemId}>
            {PRINT_BATCH_MSG.orderNumber(line.orderId)} · {line.studentName} · {line.packageName ? ORDER_PACKAGE_STAFF_MSG.labLine(line.packageName, line.productName) : line.productName} × {line.quantity} · {line.photoName}: {line.reasonText}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The batch's orders in packing order: class, student, order number, prints. */
function BatchOrders({ id }: { id: number }) {
  const detail = useQuery(printBatchQuery(id));
  if (detail.isPending) return <p className="muted">Loading orders...</p>;
  if (!detail.data) return <p className="alert alert-danger">The orders of this batch could not be loaded.</p>;
  return (
    <div className="table-wrap">
      <table className="staff-table">
        <caption className="sr-only">Orders of batch #{id}</caption>
        <thead>
          <tr>
            <th scope="col">Class</th>
            <th scope="col">Student</th>
            <th scope="col">Order</th>
            <th scope="col">Prints</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {detail.data.orders.map((order) => (
            <tr key={order.id}>
              <td>{order.className}</td>
              <td>{order.studentName}</td>
              <td>{order.id}</td>
              <td>
                {order.items.map((item) => (
                  <div key={item.id}>
                    {item.packageName ? ORDER_PACKAGE_STAFF_MSG.labLine(item.packageName, item.productName) : item.productName} × {item.quantity} · {item.photoName}
                    {item.studentName !== order.studentName ? ` · ${item.studentName}` : ''}
                  </div>
                ))}
              </td>
              <td>{ORDER_STATUS_LABELS[order.orderStatus]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
