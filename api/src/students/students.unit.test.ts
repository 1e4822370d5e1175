import { describe, expect, it } from 'vitest';
import { STUDENT_MSG } from '../../contract/messages';
import { STUDENT_CODE_ALPHABET, formatStudentCode, isStudentCode, normaliseStudentCode } from '../../contract/student-codes';
import { clientNetwork } from '../http/context';
import type { Viewer } from '../http/access';
import type { GrantedStudent } from './students.repository';
import { newStudentCode } from './student-code';
import { parseRosterCsv } from './roster-csv';
import { classAccess, isPublished, isWithheld, photoVisible, schoolUnlocked, visibleClasses, visibleStudentId } from './visibility';

describe('student codes', () => {
  it('use 32 symbols without 0, O, 1 or I', () => {
    expect(STUDENT_CODE_ALPHABET).toHaveLength(32);
    expect(new Set(STUDENT_CODE_ALPHABET).size).toBe(32);
    for (const confusing of '0O1I') expect(STUDENT_CODE_ALPHABET).not.toContain(confusing);
  });

  it('are 8 symbols from the alphabet, drawn evenly (40 bits)', () => {
    const seen = new Map<string, number>();
    const codes = new Set<string>();
    for (let i = 0; i < 4000; i++) {
      const code = newStudentCode();
      expect(isStudentCode(code)).toBe(true);
      codes.add(code);
      for (const symbol of code) seen.set(symbol, (seen.get(symbol) ?? 0) + 1);
    }
    expect(codes.size).toBe(4000);
    expect(seen.size).toBe(32);
    // 32 000 symbols: each should appear about 1000 times; a biased draw would stray far.
    for (const count of seen.values()) expect(count).toBeGreaterThan(800);
  });

  it('are read case-, space- and dash-insensitively and shown as XXXX-XXXX', () => {
    expect(normaliseStudentCode(' k7q2-m9xd ')).toBe('K7Q2M9XD');
    expect(normaliseStudentCode('K7Q2 – M9XD')).toBe('K7Q2M9XD');
    expect(normaliseStudentCode('ｋ７ｑ２ｍ９ｘｄ')).toBe('K7Q2M9XD');
    expect(formatStudentCode('k7q2m9xd')).toBe('K7Q2-M9XD');
    expect(isStudentCode('K7Q2M9XD')).toBe(true);
    for (const bad of ['K7Q2M9X', 'K7Q2M9XD2', 'K7Q2M9X0', 'K7Q2M9XO', 'K7Q2M9X1', 'K7Q2M9XI']) expect(isStudentCode(bad), bad).toBe(false);
  });
});

describe('clientNetwork', () => {
  it('keys IPv4 on its /24 and IPv6 on its /48', () => {
    expect(clientNetwork('41.223.10.77')).toBe('41.223.10.0/24');
    expect(clientNetwork('::ffff:41.223.10.77')).toBe('41.223.10.0/24');
    expect(clientNetwork('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0::/48');
  });
});

describe('parseRosterCsv', () => {
  it('finds a header in any order and ignores unknown columns', () => {
    expect(parseRosterCsv('Class,E-mail,Learner Name\n4B,a@b.co,Neo\n')).toEqual([{ row: 2, name: 'Neo', number: null, guardianEmail: 'a@b.co', guardianPhone: null }]);
    expect(parseRosterCsv('Cell,Learner Name\n71 234 567,Neo\n')).toEqual([{ row: 2, name: 'Neo', number: null, guardianEmail: null, guardianPhone: '71 234 567' }]);
  });
  it('reads tab-separated exports and keeps quoted commas', () => {
    expect(parseRosterCsv('"Dube, Kagiso"\t12\n')).toEqual([{ row: 1, name: 'Dube, Kagiso', number: '12', guardianEmail: null, guardianPhone: null }]);
  });
  it('refuses an empty file', () => {
    expect(() => parseRosterCsv(' \n\n')).toThrow(STUDENT_MSG.rosterEmpty);
  });
});

describe('the visibility rule', () => {
  const viewer = (grant: Partial<Viewer['grant']> = {}, staff = false): Viewer => ({ staff, grant: { schools: [], albums: [], students: [], ...grant } });
  const child = (id: number, albumId: number, schoolId = 1): GrantedStudent => ({
    id,
    name: `Child ${id}`,
    code: `CODE${id}`,
    albumId,
    albumName: 'A',
    schoolId,
    schoolName: 'S',
    schoolSlug: 's',
    accessMode: 'student_codes',
    doNotPublish: false,
  });
  const open = { id: 10, schoolId: 1, hasPassword: false, accessMode: 'school_password' as const, published: true };
  const locked = { ...open, id: 11, hasPassword: true };
  const codes = { ...open, accessMode: 'student_codes' as const };
  const own = { studentId: 5, doNotPublish: false, withheld: false };
  const sibling = { studentId: 6, doNotPublish: false, withheld: false };
  const group = { studentId: null, doNotPublish: false, withheld: false };
  const hidden = { studentId: 7, doNotPublish: true, withheld: false };
  /** A card photo of the family's own child, and a photo waiting in the tray. */
  const card = { studentId: null, doNotPublish: false, withheld: true };
  const tray = { studentId: null, doNotPublish: false, withheld: true };

  it('card photos and tray photos are for staff only, whatever the family holds', () => {
    expect(photoVisible(classAccess(viewer({}, true), codes, []), card)).toBe(true);
    const families = [
      classAccess(viewer({ schools: [1] }), open, []),
      classAccess(viewer({ students: [5] }), codes, [child(5, codes.id)]),
      classAccess(viewer({ schools: [1], students: [5] }), open, [child(5, open.id)]),
    ];
    for (const access of families) {
      expect(access.kind).not.toBe('none');
      expect(photoVisible(access, card)).toBe(false);
      expect(photoVisible(access, tray)).toBe(false);
      expect(photoVisible(access, { ...own, withheld: true })).toBe(false);
    }
  });

  it('staff see everything, do-not-publish included', () => {
    const access = classAccess(viewer({}, true), codes, []);
    for (const photo of [own, sibling, group, hidden]) expect(photoVisible(access, photo)).toBe(true);
    expect(visibleStudentId(access, hidden)).toBe(7);
  });

  it('a school grant shows every published photo in school_password mode, and nothing in student_codes mode', () => {
    const access = classAccess(viewer({ schools: [1] }), open, []);
    expect([own, sibling, group, hidden].map((photo) => photoVisible(access, photo))).toEqual([true, true, true, false]);
    expect(visibleStudentId(access, own)).toBeNull();
    expect(classAccess(viewer({ schools: [1] }), locked, [])).toEqual({ kind: 'none', reason: 'class' });
    expect(classAccess(viewer({ schools: [1], albums: [11] }), locked, []).kind).toBe('class');
    expect(classAccess(viewer({ schools: [1], albums: [10] }), codes, [])).toEqual({ kind: 'none', reason: 'codes' });
    expect(classAccess(viewer(), open, [])).toEqual({ kind: 'none', reason: 'school' });
  });

  it("a code shows that child's photos and the group photos, in any mode, even in a protected class", () => {
    for (const album of [codes, locked]) {
      const access = classAccess(viewer({ students: [5] }), album, [child(5, album.id)]);
      expect([own, sibling, group, hidden].map((photo) => photoVisible(access, photo))).toEqual([true, false, true, false]);
      expect(visibleStudentId(access, own)).toBe(5);
      expect(visibleStudentId(access, sibling)).toBeNull();
    }
    expect(classAccess(viewer({ students: [5] }), { ...codes, id: 99 }, [child(5, 10)]).kind).toBe('none');
  });

  it('lists only the classes a viewer may see', () => {
    const albums = [
      { id: 10, hasPassword: false, published: true },
      { id: 11, hasPassword: true, published: true },
    ];
    expect(visibleClasses(viewer({ schools: [1] }), { id: 1, accessMode: 'school_password' }, albums, [])).toEqual(albums);
    expect(visibleClasses(viewer({ schools: [1] }), { id: 1, accessMode: 'student_codes' }, albums, [])).toBeNull();
    expect(visibleClasses(viewer({ students: [5] }), { id: 1, accessMode: 'student_codes' }, albums, [child(5, 11)])).toEqual([{ id: 11, hasPassword: false, published: true }]);
    expect(schoolUnlocked(viewer({ students: [5] }), { id: 1, accessMode: 'student_codes' }, [child(5, 11)])).toBe(true);
    expect(schoolUnlocked(viewer({ schools: [1] }), { id: 1, accessMode: 'student_codes' }, [])).toBe(false);
  });

  it('a draft class is there for staff only: no grant, code or password shows it to a family', () => {
    const draft = { ...open, published: false };
    const draftCodes = { ...codes, published: false };
    expect(classAccess(viewer({}, true), draft, []).kind).toBe('staff');
    expect(classAccess(viewer({ schools: [1] }), draft, [])).toEqual({ kind: 'none', reason: 'draft' });
    expect(classAccess(viewer({ students: [5] }), draftCodes, [child(5, draftCodes.id)])).toEqual({ kind: 'none', reason: 'draft' });
    const albums = [
      { id: 10, hasPassword: false, published: false },
      { id: 12, hasPassword: false, published: true },
    ];
    expect(visibleClasses(viewer({ schools: [1] }), { id: 1, accessMode: 'school_password' }, albums, [])).toEqual([albums[1]]);
    expect(visibleClasses(viewer({}, true), { id: 1, accessMode: 'school_password' }, albums, [])).toEqual(albums);
    // A family whose child's class is a draft holds the school, with no class in it yet.
    expect(visibleClasses(viewer({ students: [5] }), { id: 1, accessMode: 'student_codes' }, albums, [child(5, 10)])).toEqual([]);
  });

  it('a draft publishes itself once its time has come; a card, the tray and a photo waiting for review are withheld', () => {
    expect(isPublished({ status: 'published', publishAt: null })).toBe(true);
    expect(isPublished({ status: 'draft', publishAt: null })).toBe(false);
    expect(isPublished({ status: 'draft', publishAt: 2_000 }, 1_999)).toBe(false);
    expect(isPublished({ status: 'draft', publishAt: 2_000 }, 2_000)).toBe(true);
    expect(isWithheld({ kind: 'photo', inTray: false, pendingReview: false })).toBe(false);
    expect(isWithheld({ kind: 'card', inTray: false, pendingReview: false })).toBe(true);
    expect(isWithheld({ kind: 'photo', inTray: true, pendingReview: false })).toBe(true);
    expect(isWithheld({ kind: 'photo', inTray: false, pendingReview: true })).toBe(true);
  });
});
