/**
 * Runs the upload queue from the page: on start, on `online`, after enqueueing and on a backoff
 * timer while the server or the network is unavailable. It turns queue events into the
 * toasts and progress, and asks the service worker for a background sync whenever work is left
 * (so a closed tab still finishes), where the browser supports it.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { UPLOAD_RELOAD_DELAY_MS } from '@contract/constants';
import { PWA_MSG, REVIEW_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { toast } from '../../../components/ui/toast';
import { summaryText } from './matching-text';
import { staffKeys } from '../api/keys';
import { getStaffToken } from '../../../lib/storage';
import { flushUploadQueue, hasPendingUploads, refreshQueueToken, UPLOAD_SYNC_TAG, type QueueEvent } from '../../../lib/upload-queue';

/** partial: everything that could be sent was sent, and the server refused some files (listed in the queue). */
export type RunnerPhase = 'idle' | 'uploading' | 'waiting' | 'complete' | 'partial' | 'failed';
export interface RunnerState {
  phase: RunnerPhase;
  message: string | null;
}

let state: RunnerState = { phase: 'idle', message: null };
const listeners = new Set<() => void>();
function set(next: RunnerState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export function useRunnerState(): RunnerState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}

/** The refused files a toast names; the queue panel lists them all. */
const REFUSED_IN_TOAST = 3;
const MIN_RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;
let retryDelay = MIN_RETRY_MS;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

/** The page's query client, while a staff screen is mounted: counts are fetched again after each stored batch. */
let counts: QueryClient | null = null;

/**
 * Photos were stored: the dashboard's and the class picker's photo counts, the school's classes and
 * the class's lists are fetched again at once (not only after the page reloads, which a partly
 * refused upload never does).
 */
function refreshCounts(): void {
  if (!counts) return;
  void Promise.all([
    counts.invalidateQueries({ queryKey: staffKeys.schools }),
    counts.invalidateQueries({ queryKey: staffKeys.stats }),
    counts.invalidateQueries({ queryKey: ['staff', 'albums'] }),
  ]);
}

function onEvent(event: QueueEvent): void {
  if (event.type === 'batch' || event.type === 'complete' || event.type === 'refused') refreshCounts();
  switch (event.type) {
    case 'batch':
      set({ phase: 'uploading', message: null });
      toast({ title: STAFF_MSG.uploadBatchCompleteTitle(event.index + 1, event.batchCount), description: STAFF_MSG.uploadBatchComplete(event.uploaded, event.total), variant: 'success' });
      break;
    case 'complete':
      set({ phase: 'complete', message: null });
      toast({
        title: STAFF_MSG.uploadCompleteTitle,
        // The photographer learns at once how many photos found their child and how many wait in the tray.
        description: STAFF_MSG.uploadComplete(event.total, event.albumName, event.matching ? summaryText(event.matching) : null),
        variant: 'success',
      });
      // The page reloads 1.5 s after completion so counts and lists are fresh.
      setTimeout(() => window.location.reload(), UPLOAD_RELOAD_DELAY_MS);
      break;
    case 'refused': {
      // The stored photos stay stored; the refused ones are named in the queue panel until discarded.
      set({ phase: 'partial', message: REVIEW_MSG.uploadPartly(event.stored, event.files.length) });
      const named = event.files.slice(0, REFUSED_IN_TOAST).map((file) => refusedText(file.name, file.reason));
      const more = event.files.length - named.length;
      toast({
        title: REVIEW_MSG.uploadRejectedTitle,
        description: [REVIEW_MSG.uploadPartly(event.stored, event.files.length), ...named, ...(more > 0 ? [`+${more}`] : [])].join(' · '),
        variant: 'destructive',
      });
      break;
    }
    case 'failed':
    case 'auth':
      set({ phase: 'failed', message: event.message });
      toast({ title: PWA_MSG.uploadFailedTitle, description: event.message || 'Failed to upload photos', variant: 'destructive' });
      break;
    case 'waiting':
      set({ phase: 'waiting', message: event.message });
      break;
  }
}

/** "IMG_0007.HEIC: not an image"; a reason that already starts with the file's name is said once. */
export const refusedText = (name: string, reason: string): string => (reason.startsWith(name) ? reason : REVIEW_MSG.uploadRejected(name, reason));

export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
    await sync?.register(UPLOAD_SYNC_TAG);
  } catch (err) {
    // Without background sync the page itself retries on `online` and on its timer.
    console.warn('Background sync unavailable', err);
  }
}

/** Sends whatever the queue holds now; safe to call any time (one flush runs at once). */
export async function runUploads(): Promise<void> {
  if (retryTimer) {
    clearTimeout(retryTimer);
    retryTimer = null;
  }
  if (!(await hasPendingUploads())) return;
  if (state.phase !== 'waiting') set({ phase: 'uploading', message: null });
  const result = await flushUploadQueue({ onEvent });
  if (result === 'offline' || result === 'retry-later') {
    void requestBackgroundSync();
    retryTimer = setTimeout(() => void runUploads(), retryDelay);
    retryDelay = Math.min(retryDelay * 2, MAX_RETRY_MS);
  } else {
    retryDelay = MIN_RETRY_MS;
    if (result === 'idle' && state.phase === 'uploading') set({ phase: 'idle', message: null });
  }
}

/** Mounted by every staff screen. */
export function useUploadRunner(): void {
  const client = useQueryClient();
  useEffect(() => {
    counts = client;
    return () => {
      if (counts === client) counts = null;
    };
  }, [client]);
  useEffect(() => {
    const token = getStaffToken();
    const start = async () => {
      if (token) await refreshQueueToken(token);
      await runUploads();
    };
    start().catch((err: unknown) => console.warn('Upload queue could not start', err));
    const online = () => {
      retryDelay = MIN_RETRY_MS;
      void runUploads();
    };
    const hidden = () => {
      if (document.visibilityState !== 'hidden') return;
      void hasPendingUploads().then((pending) => (pending ? requestBackgroundSync() : undefined));
    };
    window.addEventListener('online', online);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('online', online);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, []);
}
