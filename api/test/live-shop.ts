import { spawn } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FALLBACK_PRODUCTS } from '../contract/constants';
import { thebeToDecimal } from '../contract/money';
import { Client, freePort } from './harness';
import { startServer, waitForHealth, type Run } from './processes';
import { solidJpeg } from './images';
import { photoForm } from '../src/photos/photos.test-helpers';
import { schoolInput } from '../src/schools/schools.test-helpers';

/** A real server process on a data folder, and a small shop set up over HTTP, for operations suites. */

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface LiveServer {
  url: string;
  child: ReturnType<typeof startServer>['child'];
  exited: Promise<Run>;
  output: () => string;
  /** SIGTERM, then the exit code and how long the process took to exit. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

/** The server exactly as `npm start` runs it, with its database and storage under `env`'s folders. */
export async function startLive(env: Record<string, string>): Promise<LiveServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = startServer({ NODE_ENV: 'test', SEED_DEMO: 'false', LOG_LEVEL: 'info', PUBLIC_URL: url, ...env, PORT: String(port) });
  await waitForHealth(url, started.exited);
  return {
    url,
    ...started,
    async stop() {
      const at = Date.now();
      if (started.child.exitCode === null) started.child.kill('SIGTERM');
      const { code } = await started.exited;
      return { code, ms: Date.now() - at };
    },
  };
}

/** The environment of the embedded default in one folder: DATA_DIR, the SQLite file, the storage folder. */
export function embeddedEnv(dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dataDir, 'app.sqlite')}`, STORAGE_DIR: path.join(dataDir, 'storage') };
}

/** Runs a CLI of the repository (`npm run <x>` without npm) to its end. */
export function runCli(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

export interface LiveShop {
  staff: Client;
  schoolId: number;
  slug: string;
  password: string;
  albumId: number;
}

/** The first staff account, an open school and a class, made over HTTP. */
export async function setUpShop(url: string): Promise<LiveShop> {
  const registered = await new Client(url).post('/api/auth/register', {
    email: `owner-${randomBytes(3).toString('hex')}@studio.example`,
    password: 'studio-password',
    firstName: 'Studio',
    lastName: 'Owner',
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const staff = new Client(url, registered.body.token as string);
  const body = schoolInput({ closingDate: new Date(Date.now() + 30 * 24 * 3600_000).toISOString().slice(0, 10) });
  const school = await staff.post('/api/schools', body);
  if (school.status !== 201) throw new Error(`school: ${school.status}`);
  const album = await staff.post('/api/albums', { name: 'Class 4B', schoolId: school.body.id });
  if (album.status !== 201) throw new Error(`album: ${album.status}`);
  return { staff, schoolId: school.body.id as number, slug: school.body.slug as string, password: body.password, albumId: album.body.id as number };
}

let frame = 100;

/** A batch of small JPEGs with distinct frame numbers, as the staff upload screen sends it. */
export async function uploadForm(albumId: number, count: number, size = 480): Promise<FormData> {
  const files = await Promise.all(
    Array.from({ length: count }, async (_, i) => ({ name: `IMG_${String(++frame).padStart(4, '0')}.JPG`, bytes: await solidJpeg(size + i * 8, Math.round(size * 0.75), `#${randomBytes(3).toString('hex')}`) })),
  );
  return photoForm(files, { albumId: String(albumId) });
}

const digital = FALLBACK_PRODUCTS.find((product) => product.id === 'digital')!;

/** The order body the PWA sends for one digital copy of each photo. */
export function orderFor(shop: LiveShop, photoIds: number[]) {
  return {
    schoolId: shop.schoolId,
    customerName: 'Mpho Dube',
    customerEmail: `parent-${randomBytes(4).toString('hex')}@example.test`,
    customerPhone: '+267 71 000 000',
    studentName: 'Kagiso Dube',
    totalAmount: thebeToDecimal(digital.priceThebe * photoIds.length),
    items: photoIds.map((photoId) => ({
      photoId,
      albumId: shop.albumId,
      productType: digital.id,
      productName: digital.name,
      productDescription: 'No description available',
      quantity: 1,
      unitPrice: thebeToDecimal(digital.priceThebe),
      totalPrice: thebeToDecimal(digital.priceThebe),
    })),
    notes: '',
  };
}

/** A parent's browser that unlocked the shop's school. */
export async function parentOf(url: string, shop: LiveShop): Promise<Client> {
  const parent = new Client(url);
  const unlocked = await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password });
  if (unlocked.status !== 200) throw new Error(`verify: ${unlocked.status}`);
  return parent;
}
