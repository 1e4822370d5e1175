import { afterEach, describe, expect, it, vi } from 'vitest';
import jwt from 'jsonwebtoken';
import { ACCESS_COOKIE, createAccessService } from './access';
import type { GrantCredentialsRepository } from './grant-credentials.repository';
import type { AppContext } from './context';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';

function contextWith(cookie: string | undefined): AppContext {
  return { cookies: { get: (name: string) => (name === ACCESS_COOKIE ? cookie : undefined) } } as unknown as AppContext;
}

const none: GrantCredentialsRepository = { schools: async () => new Map(), albums: async () => new Map(), students: async () => new Map() };
const far = 4_000_000_000;
/** The cookie's claims for these school ids, each entry with a tag and a far end. */
const schoolsClaim = (ids: number[]) => ({ g: { s: ids.map((id) => [id, 't', far]) } });
const ids = (grant: { schools: readonly { id: number }[] }) => grant.schools.map((entry) => entry.id);

const signed = (claims: object, options: jwt.SignOptions = {}, secret = SECRET) => jwt.sign(claims, secret, { algorithm: 'HS256', audience: 'gallery', expiresIn: 3600, ...options });

describe('the gallery cookie', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the same grant again from a cookie it verified before', () => {
    const access = createAccessService(SECRET, none);
    const cookie = signed({ g: { s: [[3, 't', far]], a: [[7, 'u', far]], st: [] } });
    const first = access.read(contextWith(cookie));
    expect(first).toEqual({ schools: [{ id: 3, tag: 't', exp: far }], albums: [{ id: 7, tag: 'u', exp: far }], students: [] });
    expect(access.read(contextWith(cookie))).toEqual(first);
  });

  it('held: the request\'s entries, then, once an unlock wrote the cookie, the entries being written', () => {
    const access = createAccessService(SECRET, none);
    const cookie = signed({ g: { s: [[3, 't', far]], a: [], st: [] } });
    const set = vi.fn();
    const ctx = { cookies: { get: (name: string) => (name === ACCESS_COOKIE ? cookie : undefined), set }, secure: false } as unknown as AppContext;
    expect(access.held(ctx)).toEqual({ schools: [{ id: 3, tag: 't', exp: far }], albums: [], students: [] });
    access.grantSchool(ctx, 5, 2);
    const held = access.held(ctx);
    expect(held.schools.map((entry) => entry.id)).toEqual([3, 5]);
    const written = held.schools[1]!;
    expect(written.tag).not.toBe('');
    expect(written.exp).toBeGreaterThan(Date.now() / 1000);
    expect(set).toHaveBeenCalledTimes(1);
  });

  it('a kept cookie still expires when its time is up', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2027-03-01T08:00:00Z'));
    const access = createAccessService(SECRET, none);
    const cookie = signed(schoolsClaim([3]), { expiresIn: 60 });
    expect(ids(access.read(contextWith(cookie)))).toEqual([3]);
    vi.setSystemTime(new Date('2027-03-01T08:00:59Z'));
    expect(ids(access.read(contextWith(cookie)))).toEqual([3]);
    vi.setSystemTime(new Date('2027-03-01T08:01:00Z'));
    expect(ids(access.read(contextWith(cookie)))).toEqual([]);
  });

  it('a cookie changed by one character, signed with another secret or for another audience grants nothing, even after the real one was read', () => {
    const access = createAccessService(SECRET, none);
    const cookie = signed(schoolsClaim([3]));
    expect(ids(access.read(contextWith(cookie)))).toEqual([3]);
    // One character of the signed claims changed: still well-formed, no longer what was signed.
    const at = cookie.indexOf('.') + 5;
    const changed = cookie.slice(0, at) + (cookie[at] === 'x' ? 'y' : 'x') + cookie.slice(at + 1);
    expect(ids(access.read(contextWith(changed)))).toEqual([]);
    expect(access.read(contextWith(signed(schoolsClaim([3]), {}, 'another-secret-of-at-least-thirty-two-bytes'))).schools).toEqual([]);
    expect(access.read(contextWith(jwt.sign(schoolsClaim([3]), SECRET, { algorithm: 'HS256', audience: 'staff', expiresIn: 3600 }))).schools).toEqual([]);
  });

  it('hands out grants nobody can change for the next request', () => {
    const access = createAccessService(SECRET, none);
    const cookie = signed(schoolsClaim([3]));
    const grant = access.read(contextWith(cookie));
    expect(() => (grant.schools as unknown as unknown[]).push({ id: 4 })).toThrow(TypeError);
    expect(ids(access.read(contextWith(cookie)))).toEqual([3]);
  });

  it('keeps reading correctly when far more cookies come than it keeps', () => {
    const access = createAccessService(SECRET, none);
    const cookies = Array.from({ length: 2500 }, (_, i) => signed(schoolsClaim([i + 1])));
    for (const cookie of cookies) access.read(contextWith(cookie));
    expect(ids(access.read(contextWith(cookies[0])))).toEqual([1]);
    expect(ids(access.read(contextWith(cookies[2499])))).toEqual([2500]);
  });
});
