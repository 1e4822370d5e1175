/** Print batches for the lab: what is ready per school, the batches, their status and files. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PrintBatch, PrintBatchDetail, PrintBatchFile, PrintBatchLink, PrintBatchStatus, PrintReadiness } from '@contract/print-batches';
import { apiRequest, NetworkError, toApiError } from '../../../lib/api-client';
import { getStaffToken } from '../../../lib/storage';
import { staffKeys } from './keys';

export const printBatchKeys = {
  all: [...staffKeys.all, 'print-batches'] as const,
  list: [...staffKeys.all, 'print-batches', 'list'] as const,
  ready: [...staffKeys.all, 'print-batches', 'ready'] as const,
  detail: (id: number) => [...staffKeys.all, 'print-batches', 'detail', id] as const,
};

export const printBatchesQuery = () =>
  queryOptions({
    queryKey: printBatchKeys.list,
    queryFn: ({ signal }) => apiRequest<PrintBatch[]>('/api/print-batches', { auth: 'staff', signal }),
  });

export const printReadinessQuery = () =>
  queryOptions({
    queryKey: printBatchKeys.ready,
    queryFn: ({ signal }) => apiRequest<PrintReadiness[]>('/api/print-batches/ready', { auth: 'staff', signal }),
  });

export const printBatchQuery = (id: number) =>
  queryOptions({
    queryKey: printBatchKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<PrintBatchDetail>(`/api/print-batches/${id}`, { auth: 'staff', signal }),
  });

export const usePrintBatches = () => useQuery(printBatchesQuery());
export const usePrintReadiness = () => useQuery(printReadinessQuery());

/** A batch changes the status of its orders: the order list and the dashboard counts follow. */
function useInvalidateAfterBatch() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: printBatchKeys.all }),
      client.invalidateQueries({ queryKey: staffKeys.ordersAll }),
      client.invalidateQueries({ queryKey: staffKeys.stats }),
    ]);
}

export function useCreatePrintBatch() {
  const invalidate = useInvalidateAfterBatch();
  return useMutation({
    mutationFn: (schoolId: number) => apiRequest<PrintBatch>('/api/print-batches', { method: 'POST', body: { schoolId }, auth: 'staff' }),
    onSettled: invalidate,
  });
}

export function useUpdatePrintBatchStatus() {
  const invalidate = useInvalidateAfterBatch();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: Exclude<PrintBatchStatus, 'at_printers'> }) =>
      apiRequest<PrintBatch>(`/api/print-batches/${id}`, { method: 'PUT', body: { status }, auth: 'staff' }),
    onSettled: invalidate,
  });
}

/** One of the batch's files, with the staff token; the body is left to the caller to read. */
export async function fetchBatchFile(id: number, file: PrintBatchFile, signal?: AbortSignal): Promise<Response> {
  const token = getStaffToken();
  let response: Response;
  try {
    response = await fetch(`/api/print-batches/${id}/${file}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include', signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new NetworkError(err);
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** A short-lived URL the browser's own download manager can fetch (it cannot send the token). */
export const requestBatchLink = (id: number, file: PrintBatchFile): Promise<PrintBatchLink> =>
  apiRequest<PrintBatchLink>(`/api/print-batches/${id}/links`, { method: 'POST', body: { file }, auth: 'staff' });
