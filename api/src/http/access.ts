import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { GrantCredentialsRepository } from './grant-credentials.repository';
import { hmacKey } from './signing-key';
import type { AppContext } from './context';

export const ACCESS_COOKIE = 'gallery_access';
const AUDIENCE = 'gallery';
/** How long one unlock lasts: each school, class and child in the cookie ends on its own. */
export const GRANT_TTL_SECONDS = 7 * 24 * 3600;
const MAX_ENTRIES = 100;

/** What one unlock was: a school, a password class or a child (by code). */
export type GrantKind = 'school' | 'album' | 'student';

/** One unlock held in the cookie: the id, the tag of the credential that opened it, its end (epoch s). */
export interface HeldEntry {
  id: number;
  tag: string;
  exp: number;
}

/** The cookie as written: what this browser unlocked, each entry with its tag and end. */
export interface HeldGrant {
  schools: readonly HeldEntry[];
  albums: readonly HeldEntry[];
  students: readonly HeldEntry[];
}

/** What a browser holds now: the entries whose time is not up and whose credential is unchanged. */
export interface Grant {
  schools: number[];
  albums: number[];
  /** Children unlocked with their current private code: their photos and their class's group photos. */
  students: number[];
}

/** Who is asking, as the visibility rule needs it; built from the request, used without it. */
export interface Viewer {
  staff: boolean;
  grant: Grant;
}

/**
 * Who may see children's photos: a signed, HttpOnly, SameSite=Lax cookie that lists the schools,
 * password classes and children (by code) this browser has unlocked (docs/access.md, "The gallery
 * cookie" and "Grants end"). Each entry carries a keyed hash (HMAC) of the credential that opened
 * it and its own end: a new password, a switch to student codes or a new code cuts it off, and
 * only presenting a credential again makes an entry later. Staff tokens pass everywhere. Which
 * photos a grant shows is decided in one place, students/visibility.ts.
 */
export interface AccessService {
  /** The cookie's entries as signed (unchecked against the database). */
  read(ctx: AppContext): HeldGrant;
  /** The entries this answer carries: what it is writing (after an unlock), else the request's cookie as signed. */
  held(ctx: AppContext): HeldGrant;
  /** The grant still valid now: entries checked against today's credentials. */
  viewer(ctx: AppContext): Promise<Viewer>;
  /** `epoch` is the school's grant epoch read with the password that was just checked. */
  grantSchool(ctx: AppContext, schoolId: number, epoch: number): void;
  /** `epoch` is the class's grant epoch read with the password that was just checked. */
  grantAlbum(ctx: AppContext, albumId: number, epoch: number): void;
  /** `code` is the code the family just typed, as stored. */
  grantStudent(ctx: AppContext, studentId: number, code: string): void;
  /** "Forget this child on this device": the cookie is rewritten without the child, no entry made later. */
  forgetStudent(ctx: AppContext, studentId: number): void;
}

/** The tag of a credential: HMAC-SHA256 under a key derived from JWT_SECRET, so a cookie holder cannot test guesses offline. */
export function grantTagger(secret: string): (kind: GrantKind, id: number, credential: string | number) => string {
  const key = createHmac('sha256', secret).update('gallery-grant-tags').digest();
  return (kind, id, credential) => createHmac('sha256', key).update(`${kind}:${id}:${credential}`).digest('base64url').slice(0, 22);
}

export function createAccessService(secret: string, credentials: GrantCredentialsRepository): AccessService {
  const key = hmacKey(secret);
  const tag = grantTagger(secret);
  const verified = createVerifiedCookies();
  /** The grant this answer is already writing: several unlocks in one request (a cart restore) build on each other. */
  const written = new WeakMap<AppContext, HeldGrant>();

  function read(ctx: AppContext): HeldGrant {
    const raw = ctx.cookies.get(ACCESS_COOKIE);
    if (!raw) return EMPTY;
    const known = verified.get(raw);
    if (known) return known;
    try {
      const claims = jwt.verify(raw, key, { algorithms: ['HS256'], audience: AUDIENCE }) as { g?: unknown; exp?: unknown };
      const g = (typeof claims.g === 'object' && claims.g !== null ? claims.g : {}) as Record<string, unknown>;
      const grant = { schools: entries(g.s), albums: entries(g.a), students: entries(g.st) };
      if (typeof claims.exp === 'number') verified.set(raw, grant, claims.exp);
      return grant;
    } catch {
      return EMPTY;
    }
  }

  /** Rewrites the cookie; the cookie ends with its last entry, and an empty one is removed. */
  function write(ctx: AppContext, grant: HeldGrant): void {
    const now = Math.floor(Date.now() / 1000);
    const live = (list: readonly HeldEntry[]) => list.filter((entry) => entry.exp > now).slice(-MAX_ENTRIES);
    const kept = { schools: live(grant.schools), albums: live(grant.albums), students: live(grant.students) };
    written.set(ctx, kept);
    const exp = Math.max(0, ...kept.schools.map((e) => e.exp), ...kept.albums.map((e) => e.exp), ...kept.students.map((e) => e.exp));
    const options = { httpOnly: true, sameSite: 'lax' as const, secure: ctx.secure, path: '/', overwrite: true };
    if (exp <= now) {
      ctx.cookies.set(ACCESS_COOKIE, null, options);
      return;
    }
    const pack = (list: HeldEntry[]) => list.map((entry) => [entry.id, entry.tag, entry.exp]);
    const token = jwt.sign({ g: { s: pack(kept.schools), a: pack(kept.albums), st: pack(kept.students) }, exp }, key, { algorithm: 'HS256', audience: AUDIENCE });
    ctx.cookies.set(ACCESS_COOKIE, token, { ...options, maxAge: (exp - now) * 1000 });
  }

  function add(ctx: AppContext, list: 'schools' | 'albums' | 'students', entry: Omit<HeldEntry, 'exp'>): void {
    const grant = written.get(ctx) ?? read(ctx);
    const fresh = { ...entry, exp: Math.floor(Date.now() / 1000) + GRANT_TTL_SECONDS };
    write(ctx, { ...grant, [list]: [...grant[list].filter((existing) => existing.id !== entry.id), fresh] });
  }

  async function resolve(grant: HeldGrant, now: number): Promise<Grant> {
    const live = (list: readonly HeldEntry[]) => list.filter((entry) => entry.exp > now);
    const [schools, albums, students] = [live(grant.schools), live(grant.albums), live(grant.students)];
    const [schoolEpochs, albumEpochs, codes] = await Promise.all([
      credentials.schools(schools.map((e) => e.id)),
      credentials.albums(albums.map((e) => e.id)),
      credentials.students(students.map((e) => e.id)),
    ]);
    const held = <T extends string | number>(kind: GrantKind, list: HeldEntry[], current: Map<number, T>) =>
      list.filter((entry) => current.has(entry.id) && entry.tag === tag(kind, entry.id, current.get(entry.id) as T)).map((entry) => entry.id);
    return { schools: held('school', schools, schoolEpochs), albums: held('album', albums, albumEpochs), students: held('student', students, codes) };
  }

  /**
   * The cookie's grant checked against today's credentials, kept with its verified cookie under
   * the access version it was checked at (docs/access.md, "The gallery cookie"): used again only
   * while the version is the same and before its first live entry ends. The version is read
   * before the credentials, so a change committed in between is kept under the old version and
   * read afresh once the new one is seen. A kept grant is frozen and handed out as the same
   * object, so what is derived from it (the held children) may be kept with it.
   */
  async function resolved(ctx: AppContext): Promise<Grant> {
    const raw = ctx.cookies.get(ACCESS_COOKIE);
    const now = Math.floor(Date.now() / 1000);
    const held = read(ctx);
    if (!raw || !credentials.version) return resolve(held, now);
    const version = await credentials.version();
    const kept = verified.resolved(raw, version, now);
    if (kept) return kept;
    const grant = await resolve(held, now);
    const ends = [...held.schools, ...held.albums, ...held.students].map((entry) => entry.exp).filter((exp) => exp > now);
    for (const list of [grant.schools, grant.albums, grant.students]) Object.freeze(list);
    verified.keepResolved(raw, version, Object.freeze(grant), Math.min(...ends));
    return grant;
  }

  return {
    read,
    held: (ctx) => written.get(ctx) ?? read(ctx),
    async viewer(ctx) {
      if (ctx.state.principal.kind === 'staff') return { staff: true, grant: { schools: [], albums: [], students: [] } };
      return { staff: false, grant: await resolved(ctx) };
    },
    grantSchool(ctx, schoolId, epoch) {
      add(ctx, 'schools', { id: schoolId, tag: tag('school', schoolId, epoch) });
    },
    grantAlbum(ctx, albumId, epoch) {
      add(ctx, 'albums', { id: albumId, tag: tag('album', albumId, epoch) });
    },
    grantStudent(ctx, studentId, code) {
      add(ctx, 'students', { id: studentId, tag: tag('student', studentId, code) });
    },
    forgetStudent(ctx, studentId) {
      if (!ctx.cookies.get(ACCESS_COOKIE)) return;
      const grant = read(ctx);
      write(ctx, { ...grant, students: grant.students.filter((entry) => entry.id !== studentId) });
    },
  };
}

const EMPTY: HeldGrant = Object.freeze({ schools: Object.freeze([]), albums: Object.freeze([]), students: Object.freeze([]) });

/** Distinct cookies whose verified grant is kept: a gallery's worth of families at once. */
const VERIFIED_COOKIES = 2000;

/**
 * A gallery page asks for dozens of images with the same cookie; its signature is checked once and
 * the grant it carries is kept under the cookie's exact text, so a changed byte is a new lookup
 * and a forged cookie never matches. The expiry is checked on every use, as verifying does; the
 * least recently used cookies are dropped beyond VERIFIED_COOKIES. Grants handed out are frozen.
 */
function createVerifiedCookies() {
  const entries = new Map<string, { grant: HeldGrant; exp: number; resolved?: { version: number; grant: Grant; until: number } }>();
  return {
    get(raw: string): HeldGrant | undefined {
      const entry = entries.get(raw);
      if (!entry) return undefined;
      entries.delete(raw);
      // jsonwebtoken's rule: expired once the current second reaches `exp`.
      if (Math.floor(Date.now() / 1000) >= entry.exp) return undefined;
      entries.set(raw, entry);
      return entry.grant;
    },
    set(raw: string, grant: HeldGrant, exp: number): void {
      if (entries.size >= VERIFIED_COOKIES) entries.delete(entries.keys().next().value as string);
      for (const list of [grant.schools, grant.albums, grant.students]) {
        for (const entry of list) Object.freeze(entry);
        Object.freeze(list);
      }
      entries.set(raw, { grant: Object.freeze(grant), exp });
    },
    /** The grant resolved for this cookie at `version`, while `now` (epoch s) is before its first live entry's end. */
    resolved(raw: string, version: number, now: number): Grant | undefined {
      const kept = entries.get(raw)?.resolved;
      return kept && kept.version === version && now < kept.until ? kept.grant : undefined;
    },
    /** Kept only beside a verified cookie: a cookie that does not verify never has one. */
    keepResolved(raw: string, version: number, grant: Grant, until: number): void {
      const entry = entries.get(raw);
      if (entry) entry.resolved = { version, grant, until };
    },
  };
}

/** Entries as signed: [id, tag, exp] triples; anything else is dropped. */
function entries(value: unknown): HeldEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): HeldEntry[] => {
    if (!Array.isArray(item) || item.length !== 3) return [];
    const [id, tag, exp] = item as unknown[];
    if (!Number.isSafeInteger(id) || (id as number) <= 0 || typeof tag !== 'string' || tag.length === 0 || tag.length > 64 || typeof exp !== 'number') return [];
    return [{ id: id as number, tag, exp }];
  });
}
