import jwt from 'jsonwebtoken';
import { MSG } from '../../contract/messages';
import { unauthorized } from './errors';
import { hmacKey } from './signing-key';
import type { AppContext } from './context';

export const ACCESS_COOKIE = 'gallery_access';
const AUDIENCE = 'gallery';
const TTL_SECONDS = 7 * 24 * 3600;
const MAX_ENTRIES = 100;

export interface Grant {
  schools: number[];
  albums: number[];
  /** Children unlocked with their private code: their photos and their class's group photos. */
  students: number[];
  /** For each of those children, the tag of the code that unlocked them (students/student-code.ts). */
  codeTags: Record<number, string>;
}

/** Who is asking, as the visibility rule needs it; built from the request, used without it. */
export interface Viewer {
  staff: boolean;
  grant: Grant;
}

/**
 * Who may see children's photos: a signed, HttpOnly, SameSite=Lax cookie that lists the schools,
 * password classes and children (by code) this browser has unlocked (docs/access.md, "The gallery
 * cookie"). Staff tokens pass everywhere. Which photos a grant shows is decided in one place,
 * students/visibility.ts.
 */
export interface AccessService {
  read(ctx: AppContext): Grant;
  viewer(ctx: AppContext): Viewer;
  grantSchool(ctx: AppContext, schoolId: number): void;
  grantAlbum(ctx: AppContext, schoolId: number, albumId: number): void;
  grantStudent(ctx: AppContext, studentId: number, codeTag: string): void;
  /** "Forget this child on this device": the cookie is rewritten without the child. */
  forgetStudent(ctx: AppContext, studentId: number): void;
  /** A class password is only asked once the school is unlocked (staff pass). */
  assertSchool(ctx: AppContext, schoolId: number): void;
}

export function createAccessService(secret: string): AccessService {
  const key = hmacKey(secret);
  const verified = createVerifiedCookies();

  function read(ctx: AppContext): Grant {
    const raw = ctx.cookies.get(ACCESS_COOKIE);
    if (!raw) return emptyGrant();
    const known = verified.get(raw);
    if (known) return known;
    try {
      const claims = jwt.verify(raw, key, { algorithms: ['HS256'], audience: AUDIENCE }) as { s?: unknown; a?: unknown; st?: unknown; sk?: unknown; exp?: unknown };
      const codeTags = tags(claims.sk);
      // A child without the tag of its code is not held: the grant must say which code opened it.
      const grant = { schools: ids(claims.s), albums: ids(claims.a), students: ids(claims.st).filter((id) => id in codeTags), codeTags };
      if (typeof claims.exp === 'number') verified.set(raw, grant, claims.exp);
      return grant;
    } catch {
      return emptyGrant();
    }
  }

  function write(ctx: AppContext, grant: Grant): void {
    const students = grant.students.slice(-MAX_ENTRIES);
    const token = jwt.sign(
      {
        s: grant.schools.slice(-MAX_ENTRIES),
        a: grant.albums.slice(-MAX_ENTRIES),
        st: students,
        sk: Object.fromEntries(students.map((id) => [id, grant.codeTags[id]])),
      },
      key,
      {
        algorithm: 'HS256',
        audience: AUDIENCE,
        expiresIn: TTL_SECONDS,
      },
    );
    ctx.cookies.set(ACCESS_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/',
      maxAge: TTL_SECONDS * 1000,
      overwrite: true,
    });
  }

  const hasSchool = (ctx: AppContext, schoolId: number) =>
    ctx.state.principal.kind === 'staff' || read(ctx).schools.includes(schoolId);

  return {
    read,
    viewer: (ctx) => ({ staff: ctx.state.principal.kind === 'staff', grant: read(ctx) }),
    grantSchool(ctx, schoolId) {
      const grant = read(ctx);
      write(ctx, { ...grant, schools: addUnique(grant.schools, schoolId) });
    },
    grantAlbum(ctx, schoolId, albumId) {
      const grant = read(ctx);
      write(ctx, { ...grant, schools: addUnique(grant.schools, schoolId), albums: addUnique(grant.albums, albumId) });
    },
    grantStudent(ctx, studentId, codeTag) {
      const grant = read(ctx);
      write(ctx, { ...grant, students: addUnique(grant.students, studentId), codeTags: { ...grant.codeTags, [studentId]: codeTag } });
    },
    forgetStudent(ctx, studentId) {
      const grant = read(ctx);
      const codeTags = Object.fromEntries(Object.entries(grant.codeTags).filter(([id]) => Number(id) !== studentId));
      write(ctx, { ...grant, students: grant.students.filter((existing) => existing !== studentId), codeTags });
    },
    assertSchool(ctx, schoolId) {
      if (!hasSchool(ctx, schoolId)) throw unauthorized(MSG.schoolAccessRequired, 'SCHOOL_LOCKED');
    },
  };
}

/** Distinct cookies whose verified grant is kept: a gallery's worth of families at once. */
const VERIFIED_COOKIES = 2000;

/**
 * A gallery page asks for dozens of images with the same cookie; its signature is checked once and
 * the grant it carries is kept under the cookie's exact text, so a changed byte is a new lookup
 * and a forged cookie never matches. The expiry is checked on every use, as verifying does; the
 * least recently used cookies are dropped beyond VERIFIED_COOKIES. Grants handed out are frozen.
 */
function createVerifiedCookies() {
  const entries = new Map<string, { grant: Grant; exp: number }>();
  return {
    get(raw: string): Grant | undefined {
      const entry = entries.get(raw);
      if (!entry) return undefined;
      entries.delete(raw);
      // jsonwebtoken's rule: expired once the current second reaches `exp`.
      if (Math.floor(Date.now() / 1000) >= entry.exp) return undefined;
      entries.set(raw, entry);
      return entry.grant;
    },
    set(raw: string, grant: Grant, exp: number): void {
      if (entries.size >= VERIFIED_COOKIES) entries.delete(entries.keys().next().value as string);
      Object.freeze(grant.schools);
      Object.freeze(grant.albums);
      Object.freeze(grant.students);
      Object.freeze(grant.codeTags);
      entries.set(raw, { grant: Object.freeze(grant), exp });
    },
  };
}

function emptyGrant(): Grant {
  return { schools: [], albums: [], students: [], codeTags: {} };
}

function tags(value: unknown): Record<number, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: Record<number, string> = {};
  for (const [key, tag] of Object.entries(value)) {
    const id = Number(key);
    if (Number.isSafeInteger(id) && id > 0 && typeof tag === 'string' && tag.length > 0 && tag.length <= 64) out[id] = tag;
  }
  return out;
}

function ids(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v) && v > 0) : [];
}

function addUnique(list: number[], id: number): number[] {
  return [...list.filter((existing) => existing !== id), id];
}
