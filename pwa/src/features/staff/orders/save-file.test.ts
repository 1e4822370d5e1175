import { describe, expect, it } from 'vitest';
import { canStreamToDisk, formatBytes, pickZipFile, streamIntoFile } from './save-file';

function fakeFile() {
  const written: number[][] = [];
  const state = { closed: false, aborted: null as unknown };
  return {
    written,
    state,
    file: {
      write: async (data: Uint8Array) => void written.push([...data]),
      close: async () => void (state.closed = true),
      abort: async (reason?: unknown) => void (state.aborted = reason ?? 'aborted'),
    },
  };
}

function body(chunks: number[][], failAfter?: number): Response {
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && index === failAfter) return controller.error(new TypeError('network error'));
      const chunk = chunks[index++];
      if (chunk) controller.enqueue(new Uint8Array(chunk));
      else controller.close();
    },
  });
  return new Response(stream);
}

describe('saving a batch ZIP to disk', () => {
  it('writes every chunk in order as it arrives and reports the bytes so far', async () => {
    const { file, written, state } = fakeFile();
    const progress: number[] = [];
    await streamIntoFile(body([[1, 2, 3], [4], [5, 6]]), file, (bytes) => progress.push(bytes));
    expect(written).toEqual([[1, 2, 3], [4], [5, 6]]);
    expect(progress).toEqual([3, 4, 6]);
    expect(state.closed).toBe(true);
  });

  it('abandons the file when the download breaks off', async () => {
    const { file, state } = fakeFile();
    await expect(streamIntoFile(body([[1], [2], [3]], 2), file, () => undefined)).rejects.toThrow('network error');
    expect(state.closed).toBe(false);
    expect(state.aborted).toBeInstanceOf(TypeError);
  });

  it('uses the save dialog only where the browser has one, and a closed dialog saves nothing', async () => {
    const win = window as unknown as { showSaveFilePicker?: unknown };
    expect(canStreamToDisk()).toBe(false);
    win.showSaveFilePicker = async () => {
      throw new DOMException('The user aborted a request.', 'AbortError');
    };
    try {
      expect(canStreamToDisk()).toBe(true);
      expect(await pickZipFile('Batch 1 files - School.zip')).toBeNull();
    } finally {
      delete win.showSaveFilePicker;
    }
  });

  it('shows sizes the way people read them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2.5 * 1024 ** 3)).toBe('2.5 GB');
  });
});
