import http from 'node:http';
import net from 'node:net';

/** Requests that fetch cannot make: any method, any Content-Encoding, bodies streamed at a chosen pace. */

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: <T = any>() => T;
}

export function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export interface StreamedUpload {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Body bytes the client managed to hand to the socket before the server answered and closed. */
  bytesWritten: number;
  /** Body bytes written when the answer arrived. */
  bytesAtAnswer: number;
}

/**
 * Streams a body as fast as the server reads it (or `paceMs` apart, `chunk` at a time) until
 * `total` bytes, the server closing the connection, or `giveUpAfter` bytes, whichever comes first.
 * `head` is sent first (e.g. a multipart preamble); the rest is filled with `fill`.
 */
export function streamBody(
  baseUrl: string,
  path: string,
  options: {
    headers: Record<string, string>;
    head?: Buffer;
    total: number;
    chunk?: number;
    paceMs?: number;
    giveUpAfter?: number;
    fill?: number;
  },
): Promise<StreamedUpload> {
  const { head = Buffer.alloc(0), total, chunk = 64 * 1024, paceMs = 0, giveUpAfter = total, fill = 0x41 } = options;
  return new Promise((resolve, reject) => {
    let written = 0;
    let atAnswer = -1;
    let answer: { status: number; headers: http.IncomingHttpHeaders; text: string } | null = null;
    let finished = false;
    let timer: NodeJS.Timeout | null = null;
    const done = () => {
      if (finished || !answer) return;
      finished = true;
      if (timer) clearTimeout(timer);
      resolve({ ...answer, bytesWritten: written, bytesAtAnswer: atAnswer });
    };
    const req = http.request(`${baseUrl}${path}`, { method: 'POST', headers: options.headers }, (res) => {
      atAnswer = written;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
        stop();
        done();
      });
    });
    let stopped = false;
    const stop = () => {
      stopped = true;
      req.destroy();
    };
    // After the answer the server closes; write errors then are expected.
    req.on('error', (err) => {
      if (answer) done();
      else if (!stopped) setTimeout(() => (answer ? done() : reject(err)), 2000);
    });
    req.on('close', () => setTimeout(done, 50));
    const filler = Buffer.alloc(chunk, fill);
    const write = (buffer: Buffer) => {
      written += buffer.length;
      return req.write(buffer);
    };
    const pump = () => {
      if (stopped) return;
      while (written < total && written < giveUpAfter) {
        const size = Math.min(chunk, total - written);
        const piece = written < head.length ? head.subarray(written, written + size) : filler.subarray(0, size);
        const ok = write(piece);
        if (paceMs > 0) {
          timer = setTimeout(pump, paceMs);
          return;
        }
        if (!ok) {
          req.once('drain', pump);
          return;
        }
      }
      if (written >= total) req.end();
      else if (written >= giveUpAfter) {
        // The server kept reading what it should have refused: report that instead of waiting forever.
        answer = { status: 0, headers: {}, text: 'the server read the body instead of answering' };
        stop();
        done();
      }
    };
    pump();
  });
}

/**
 * A client that sends a chunked body `paceMs` apart for `sendForMs` without reading anything,
 * then reads what the server said: what a phone busy uploading sees once it looks at the answer.
 * Resolves with the bytes received and the socket error, if any.
 */
export function sendBeforeReading(
  baseUrl: string,
  path: string,
  options: { headers: Record<string, string>; head: Buffer; sendForMs: number; paceMs: number; chunk?: number },
): Promise<{ received: string; error: string | null }> {
  const url = new URL(baseUrl);
  const { headers, head, sendForMs, paceMs, chunk = 64 * 1024 } = options;
  const framed = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.pause();
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ received: Buffer.concat(received).toString('utf8'), error });
    });
    const lines = Object.entries({ host: url.host, ...headers, 'transfer-encoding': 'chunked' }).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
    socket.write(framed(head));
    const start = Date.now();
    const pump = () => {
      if (socket.destroyed) return;
      if (Date.now() - start > sendForMs) {
        socket.resume();
        return;
      }
      if (socket.write(framed(Buffer.alloc(chunk, 0x41)))) setTimeout(pump, paceMs);
      else socket.once('drain', pump);
    };
    pump();
    const giveUp = setTimeout(() => socket.destroy(), sendForMs + 10_000);
  });
}
