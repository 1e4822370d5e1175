/**
 * Saving the batch files on the photographer's device. PDFs are small and are saved from memory.
 * A batch ZIP can weigh gigabytes, so it is never held in memory: where the browser lets the app
 * write to a file the user picks (File System Access API), the download is streamed into it with
 * progress; elsewhere the browser's own download manager fetches it from a short-lived link.
 */

/** Saves a Blob as a download named `fileName` (an object URL, revoked once used). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  startBrowserDownload(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Hands a URL to the browser's download manager. */
export function startBrowserDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

interface WritableFile {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
}

interface SaveFilePicker {
  showSaveFilePicker(options: { suggestedName: string; types: { description: string; accept: Record<string, string[]> }[] }): Promise<{ createWritable(): Promise<WritableFile> }>;
}

/** Whether this browser can stream a download into a file the user chooses. */
export const canStreamToDisk = (): boolean => typeof (window as unknown as Partial<SaveFilePicker>).showSaveFilePicker === 'function';

/**
 * Asks where to save the ZIP. Null when the user closes the picker without choosing; only to be
 * called when canStreamToDisk().
 */
export async function pickZipFile(suggestedName: string): Promise<WritableFile | null> {
  try {
    const handle = await (window as unknown as SaveFilePicker).showSaveFilePicker({
      suggestedName,
      types: [{ description: 'ZIP archive', accept: { 'application/zip': ['.zip'] } }],
    });
    return await handle.createWritable();
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return null;
    throw err;
  }
}

/** Copies the response body into the file as it arrives, reporting the bytes written so far. */
export async function streamIntoFile(response: Response, file: WritableFile, onProgress: (bytes: number) => void): Promise<void> {
  if (!response.body) throw new Error('The download has no content');
  const reader = response.body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await file.write(value);
      bytes += value.byteLength;
      onProgress(bytes);
    }
    await file.close();
  } catch (err) {
    await file.abort(err).catch(() => undefined);
    throw err;
  }
}

/** "1.4 MB", "2.1 GB" */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
