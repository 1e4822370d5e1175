import jwt from 'jsonwebtoken';
import { MSG } from '../../contract/messages';
import { forbidden, unauthorized } from './errors';
import type { AppContext } from './context';

export const ACCESS_COOKIE = 'gallery_access';
const AUDIENCE = 'gallery';
const TTL_SECONDS = 7 * 24 * 3600;
const MAX_ENTRIES = 100;

export interface Grant {
  schools: number[];
  albums: number[];
}

/**
 * Who may see children's photos (D3): a signed, HttpOnly, SameSite=Lax cookie that lists the
 * schools and password classes this browser has unlocked. Staff tokens pass everywhere.
 */
export interface AccessService {
  read(ctx: AppContext): Grant;
  grantSchool(ctx: AppContext, schoolId: number): void;
  grantAlbum(ctx: AppContext, schoolId: number, albumId: number): void;
  hasSchool(ctx: AppContext, schoolId: number): boolean;
  assertSchool(ctx: AppContext, schoolId: number): void;
  assertAlbum(ctx: AppContext, album: { id: number; schoolId: number; hasPassword: boolean }): void;
}

export function createAccessService(secret: string): AccessService {
  function read(ctx: AppContext): Grant {
    const raw = ctx.cookies.get(ACCESS_COOKIE);
    if (!raw) return { schools: [], albums: [] };
    try {
      const claims = jwt.verify(raw, secret, { algorithms: ['HS256'], audience: AUDIENCE }) as { s?: unknown; a?: unknown };
      return { schools: ids(claims.s), albums: ids(claims.a) };
    } catch {
      return { schools: [], albums: [] };
    }
  }

  function write(ctx: AppContext, grant: Grant): void {
    const token = jwt.sign({ s: grant.schools.slice(-MAX_ENTRIES), a: grant.albums.slice(-MAX_ENTRIES) }, secret, {
      algorithm: 'HS256',
      audience: AUDIENCE,
      expiresIn: TTL_SECONDS,
    });
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
    hasSchool,
    grantSchool(ctx, schoolId) {
      const grant = read(ctx);
      write(ctx, { schools: addUnique(grant.schools, schoolId), albums: grant.albums });
    },
    grantAlbum(ctx, schoolId, albumId) {
      const grant = read(ctx);
      write(ctx, { schools: addUnique(grant.schools, schoolId), albums: addUnique(grant.albums, albumId) });
    },
    assertSchool(ctx, schoolId) {
      if (!hasSchool(ctx, schoolId)) throw unauthorized(MSG.schoolAccessRequired, 'SCHOOL_LOCKED');
    },
    assertAlbum(ctx, album) {
      if (ctx.state.principal.kind === 'staff') return;
      const grant = read(ctx);
      if (!grant.schools.includes(album.schoolId)) throw unauthorized(MSG.schoolAccessRequired, 'SCHOOL_LOCKED');
      if (album.hasPassword && !grant.albums.includes(album.id)) throw forbidden(MSG.classAccessRequired, 'CLASS_LOCKED');
    },
  };
}

function ids(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v) && v > 0) : [];
}

function addUnique(list: number[], id: number): number[] {
  return [...list.filter((existing) => existing !== id), id];
}
