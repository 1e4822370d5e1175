import { afterEach, describe, expect, it, vi } from 'vitest';
import jwt from 'jsonwebtoken';
import { ACCESS_COOKIE, createAccessService } from './access';
import type { AppContext } from './context';

const SECRET = 'a-test-secret-of-at-least-thirty-two-bytes';

function contextWith(cookie: string | undefined): AppContext {
  return { cookies: { get: (name: string) => (name === ACCESS_COOKIE ? cookie : undefined) } } as unknown as AppContext;
}

const signed = (claims: object, options: jwt.SignOptions = {}, secret = SECRET) => jwt.sign(claims, secret, { algorithm: 'HS256', audience: 'gallery', expiresIn: 3600, ...options });

describe('the gallery cookie', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the same grant again from a cookie it verified before', () => {
    const access = createAccessService(SECRET);
    const cookie = signed({ s: [3], a: [7], st: [], sk: {} });
    const first = access.read(contextWith(cookie));
    expect(first).toEqual({ schools: [3], albums: [7], students: [], codeTags: {} });
    expect(access.read(contextWith(cookie))).toEqual(first);
  });

  it('a kept cookie still expires when its time is up', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2027-03-01T08:00:00Z'));
    const access = createAccessService(SECRET);
    const cookie = signed({ s: [3] }, { expiresIn: 60 });
    expect(access.read(contextWith(cookie)).schools).toEqual([3]);
    vi.setSystemTime(new Date('2027-03-01T08:00:59Z'));
    expect(access.read(contextWith(cookie)).schools).toEqual([3]);
    vi.setSystemTime(new Date('2027-03-01T08:01:00Z'));
    expect(access.read(contextWith(cookie)).schools).toEqual([]);
  });

  it('a cookie changed by one character, signed with another secret or for another audience grants nothing, even after the real one was read', () => {
    const access = createAccessService(SECRET);
    const cookie = signed({ s: [3] });
    expect(access.read(contextWith(cookie)).schools).toEqual([3]);
    // One character of the signed claims changed: still well-formed, no longer what was signed.
    const at = cookie.indexOf('.') + 5;
    const changed = cookie.slice(0, at) + (cookie[at] === 'x' ? 'y' : 'x') + cookie.slice(at + 1);
    expect(access.read(contextWith(changed)).schools).toEqual([]);
    expect(access.read(contextWith(signed({ s: [3] }, {}, 'another-secret-of-at-least-thirty-two-bytes'))).schools).toEqual([]);
    expect(access.read(contextWith(jwt.sign({ s: [3] }, SECRET, { algorithm: 'HS256', audience: 'staff', expiresIn: 3600 }))).schools).toEqual([]);
  });

  it('hands out grants nobody can change for the next request', () => {
    const access = createAccessService(SECRET);
    const cookie = signed({ s: [3] });
    const grant = access.read(contextWith(cookie));
    expect(() => grant.schools.push(4)).toThrow(TypeError);
    expect(access.read(contextWith(cookie)).schools).toEqual([3]);
  });

  it('keeps reading correctly when far more cookies come than it keeps', () => {
    const access = createAccessService(SECRET);
    const cookies = Array.from({ length: 2500 }, (_, i) => signed({ s: [i + 1] }));
    for (const cookie of cookies) access.read(contextWith(cookie));
    expect(access.read(contextWith(cookies[0])).schools).toEqual([1]);
    expect(access.read(contextWith(cookies[2499])).schools).toEqual([2500]);
  });
});
