/** Steps and API calls the staff journeys share (role and label selectors, data made via the API). */
import sharp from 'sharp';
import type { Page } from 'playwright-core';

export const ADMIN = { email: 'admin@example.com', password: 'photos123' };

/** A small, distinct JPEG per index (distinct bytes, so sizes and content differ). */
export async function makeJpeg(index: number, width = 640, height = 480): Promise<Buffer> {
  const hue = (index * 37) % 255;
  return sharp({ create: { width, height, channels: 3, background: { r: hue, g: 255 - hue, b: (index * 91) % 255 } } })
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><text x="20" y="80" font-size="60">${index}</text></svg>`), top: 0, left: 0 }])
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function makePhotos(count: number, prefix = 'IMG'): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({ name: `${prefix}_${String(i + 1).padStart(4, '0')}.JPG`, mimeType: 'image/jpeg', buffer: await makeJpeg(i + 1) })),
  );
}

export async function api<T>(baseUrl: string, path: string, init: { method?: string; token?: string; body?: unknown; cookie?: string } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} -> ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Sends one upload batch as the queue does (multipart, staff token); answers the status and the JSON body. */
export async function uploadBatch(
  baseUrl: string,
  token: string,
  albumId: number,
  files: { name: string; buffer: Buffer; mimeType?: string }[],
): Promise<{ status: number; body: { photos: { id: number; originalName: string }[]; rejected?: { name: string; reason: string }[]; message?: string } }> {
  const form = new FormData();
  form.append('albumId', String(albumId));
  for (const file of files) form.append('photos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType ?? 'image/jpeg' }), file.name);
  const response = await fetch(`${baseUrl}/api/photos/upload-batch`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as never };
}

export async function adminToken(baseUrl: string): Promise<string> {
  return (await api<{ token: string }>(baseUrl, '/api/auth/login', { method: 'POST', body: ADMIN })).token;
}

export async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/photographer-dashboard`);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Photographer Dashboard' }).waitFor();
}

export async function createSchoolAndClass(baseUrl: string, token: string, label: string): Promise<{ schoolId: number; slug: string; albumId: number; name: string; className: string }> {
  const slug = `${label}-${Date.now()}`;
  const name = `${label} School ${Date.now()}`;
  const school = await api<{ id: number }>(baseUrl, '/api/schools', { method: 'POST', token, body: { name, slug, password: 'school123', contactEmail: 'office@example.com' } });
  const className = 'Grade 3B';
  const album = await api<{ id: number }>(baseUrl, '/api/albums', { method: 'POST', token, body: { name: className, schoolId: school.id } });
  return { schoolId: school.id, slug, albumId: album.id, name, className };
}

/** A student-codes school with one class (a draft until published) and its roster, made through the API. */
export async function createCodesClass(
  baseUrl: string,
  token: string,
  label: string,
  className: string,
  names: string[],
): Promise<{ school: { id: number; name: string; slug: string }; album: { id: number; status: string }; students: { id: number; name: string; code: string }[] }> {
  const stamp = Date.now();
  const school = await api<{ id: number; name: string; slug: string }>(baseUrl, '/api/schools', {
    method: 'POST',
    token,
    body: { name: `${label} School ${stamp}`, slug: `${label.toLowerCase()}-${stamp}`, password: 'school123', contactEmail: 'office@example.com', accessMode: 'student_codes' },
  });
  const album = await api<{ id: number; status: string }>(baseUrl, '/api/albums', { method: 'POST', token, body: { name: className, schoolId: school.id } });
  const { students } = await api<{ students: { id: number; name: string; code: string }[] }>(baseUrl, `/api/albums/${album.id}/students`, {
    method: 'POST',
    token,
    body: { students: names.map((name) => ({ name })) },
  });
  return { school, album, students };
}

export async function photoCount(baseUrl: string, token: string, albumId: number): Promise<{ total: number; distinct: number }> {
  const photos = await api<{ originalName: string }[]>(baseUrl, `/api/albums/${albumId}/photos`, { token });
  return { total: photos.length, distinct: new Set(photos.map((photo) => photo.originalName)).size };
}

/**
 * Records toast titles and upload progress values into Node from every document the page loads,
 * so a reload (the spec reloads 1.5 s after an upload) does not lose what was shown.
 */
export async function recordUploadUi(page: Page): Promise<string[]> {
  const log: string[] = [];
  await page.exposeFunction('__recordUi', (entry: string) => log.push(entry));
  await page.addInitScript(() => {
    const record = (window as unknown as { __recordUi: (entry: string) => void }).__recordUi;
    let last = '';
    const scan = () => {
      for (const title of Array.from(document.querySelectorAll('.toast .toast-title'))) {
        const text = `toast:${title.textContent ?? ''}`;
        if (text !== last) {
          last = text;
          record(text);
        }
      }
      const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
      const value = bar?.getAttribute('aria-valuenow');
      if (value && value !== (window as unknown as { __lastProgress?: string }).__lastProgress) {
        (window as unknown as { __lastProgress?: string }).__lastProgress = value;
        record(`progress:${value}`);
      }
    };
    new MutationObserver(scan).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return log;
}
