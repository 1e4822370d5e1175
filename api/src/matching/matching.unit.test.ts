import { describe, expect, it } from 'vitest';
import { cardCodeOf } from './card-text';
import { createNameMatcher, fileNameCandidates, nameKey } from './file-names';
import { captureOrder, matchSession, type SessionPhoto } from './match-session';

const PUBLIC = 'https://photos.example.co.bw';

describe('card text', () => {
  it("is the flyer's URL or the bare code, nothing else", () => {
    expect(cardCodeOf(`${PUBLIC}/code/K7Q2-M9XD`, PUBLIC)).toBe('K7Q2M9XD');
    expect(cardCodeOf('HTTPS://PHOTOS.EXAMPLE.CO.BW/code/k7q2m9xd', PUBLIC)).toBe('K7Q2M9XD');
    expect(cardCodeOf('k7q2-m9xd', PUBLIC)).toBe('K7Q2M9XD');
    expect(cardCodeOf('https://elsewhere.example/code/K7Q2-M9XD', PUBLIC)).toBeNull();
    expect(cardCodeOf(`${PUBLIC}/school/K7Q2-M9XD`, PUBLIC)).toBeNull();
    expect(cardCodeOf(`${PUBLIC}/code/K7Q2-M9X0`, PUBLIC)).toBeNull();
    expect(cardCodeOf('https://example.org/menu', PUBLIC)).toBeNull();
    expect(cardCodeOf(`${PUBLIC}/photos/code/K7Q2-M9XD`, `${PUBLIC}/photos`)).toBe('K7Q2M9XD');
  });
});

describe('file names', () => {
  it('normalises Unicode form, case and separators, and drops a frame number before or after the name', () => {
    expect(nameKey('Zoë  Letsholo'.normalize('NFD'))).toBe(nameKey('zoë letsholo'));
    expect(fileNameCandidates('Neo Kgosi_0423.JPG')).toContain('neo kgosi');
    expect(fileNameCandidates('0423 Neo Kgosi.jpg')).toContain('neo kgosi');
    expect(fileNameCandidates('Neo Kgosi (2).jpg')).toContain('neo kgosi');
    expect(fileNameCandidates('IMG_0423.JPG')).not.toContain('0423');
  });

  it('matches one student by name or number; two students of one name are ambiguous; camera names match nobody', () => {
    const match = createNameMatcher([
      { id: 1, name: 'Neo Kgosi', number: null },
      { id: 2, name: 'Kagiso Dube', number: '2024-001' },
      { id: 3, name: 'Kagiso Dube', number: '2024-002' },
      { id: 4, name: "Tshepo O'Brien", number: '77' },
    ]);
    expect(match('neo-kgosi_0001.jpg')).toBe(1);
    expect(match('Kagiso Dube_0002.jpg')).toBe('ambiguous');
    expect(match('2024-002_0003.jpg')).toBe(3);
    expect(match('Tshepo O’Brien.jpg')).toBe(4);
    expect(match('IMG_0004.JPG')).toBeNull();
    expect(match('DSC00077.JPG')).toBeNull();
  });
});

const photo = (id: number, over: Partial<SessionPhoto> = {}): SessionPhoto => ({
  id,
  kind: 'photo',
  cardStatus: null,
  cardStudentId: null,
  capturedAt: null,
  seq: id,
  originalName: `IMG_${id}.JPG`,
  studentId: null,
  inTray: false,
  matchedBy: null,
  ...over,
});
const cardOf = (id: number, studentId: number | null, status: 'known' | 'unknown' | 'other_class' = 'known') =>
  photo(id, { kind: 'card', cardStatus: status, cardStudentId: studentId });

describe('capture order and matching', () => {
  it('orders by EXIF time only when every photo has one, else by the client number, then numeric-aware names', () => {
    const a = photo(1, { seq: null, originalName: 'IMG_10.JPG' });
    const b = photo(2, { seq: null, originalName: 'IMG_2.JPG' });
    expect(captureOrder([a, b]).map((p) => p.id)).toEqual([2, 1]);
    const timed = [photo(1, { capturedAt: 300 }), photo(2, { capturedAt: 100 }), photo(3, { capturedAt: 200 })];
    expect(captureOrder(timed).map((p) => p.id)).toEqual([2, 3, 1]);
    expect(captureOrder([...timed, photo(4, { seq: 0 })]).map((p) => p.id)).toEqual([4, 1, 2, 3]);
  });

  it('gives the same placements however the photos are listed', () => {
    const photos = [photo(1), cardOf(2, 50), photo(3), photo(4, { originalName: 'Neo Kgosi_4.jpg' }), cardOf(5, null, 'unknown'), photo(6), cardOf(7, 60, 'other_class'), photo(8)];
    const match = createNameMatcher([{ id: 70, name: 'Neo Kgosi', number: null }]);
    const expected = new Map([
      [1, { studentId: null, inTray: true, matchedBy: null }],
      [3, { studentId: 50, inTray: false, matchedBy: 'card' }],
      [4, { studentId: 70, inTray: false, matchedBy: 'name' }],
      [6, { studentId: null, inTray: true, matchedBy: null }],
      [8, { studentId: null, inTray: true, matchedBy: null }],
    ]);
    expect(matchSession(photos, match)).toEqual(expected);
    expect(matchSession([...photos].reverse(), match)).toEqual(expected);
    // A photo staff placed keeps its place.
    expect(matchSession([photo(1, { matchedBy: 'staff', studentId: 9 }), cardOf(2, 50), photo(3)], match).has(1)).toBe(false);
  });
});
