import { createHmac } from 'node:crypto';
import type { ProductKind } from '../../contract/constants';
import type { Deps } from '../deps';
import type { Tx } from '../db/database';
import type { HeldEntry, HeldGrant, Viewer } from '../http/access';
import { GABORONE_OFFSET_MS, localDate } from '../outreach/send-window';
import { allocateRevenue } from './allocate';
import { createReportsRecordingRepository, type ChildPlace, type NewSaleLine, type NewVisit } from './reports-recording.repository';

/**
 * The recording side of the season reports (docs/reports.md): each order's sale lines written with
 * the order, marked in the transaction that pays it, and who opened a gallery.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The Botswana calendar day of `at` as YYYYMMDD (docs/reports.md#dates-and-ranges). */
export function reportDay(at: number): number {
  return Number(localDate(at).replace(/-/g, ''));
}

/** The number of the Botswana calendar day of `at`, counted from 1 January 1970. */
const dayNumber = (at: number): number => Math.floor((at + GABORONE_OFFSET_MS) / DAY_MS);

/** Calendar days from the class's publish day to the day paid, never below 0; null when the class has no publish time. */
export function publishOffset(paidAt: number, publishedAt: number | null): number | null {
  if (publishedAt === null) return null;
  return Math.max(0, dayNumber(paidAt) - dayNumber(publishedAt));
}

/** An order as placed, as far as its sale lines go: single lines first, then package lines, each in the order placed. */
export interface SaleSource {
  orderId: string;
  schoolId: number;
  /** What the order charges, after discounts. */
  totalThebe: number;
  placedAt: number;
  singles: readonly { albumId: number | null; studentId: number | null; productId: string; productName: string; kind: ProductKind; quantity: number; totalThebe: number }[];
  packages: readonly {
    packageId: number | null;
    name: string;
    quantity: number;
    totalThebe: number;
    studentId: number | null;
    /** Ordered before picture day: its class is `albumId` (the child's), its contents the package's products (docs/prepaid.md). */
    prepaid?: boolean;
    albumId?: number | null;
    /** Its contents with what each costs as a single product (times the quantity): the package's digital part is theirs (docs/reports.md#revenue-of-a-line). */
    contents: readonly { albumId: number | null; kind: ProductKind; totalThebe: number }[];
  }[];
}

/**
 * The digital part of a line's revenue: all of a digital single line's, none of a print line's,
 * and of a package the share its digital contents have of its contents' single prices (by count
 * when they have no price), rounded down so the print part is never negative.
 */
export function digitalPart(revenueThebe: number, contents: readonly { kind: ProductKind; totalThebe: number }[] | null, digital: boolean): number {
  if (contents === null) return digital ? revenueThebe : 0;
  if (contents.length === 0) return 0;
  const valued = contents.some((content) => content.totalThebe > 0);
  const weight = (content: { totalThebe: number }) => (valued ? Math.max(0, content.totalThebe) : 1);
  const all = contents.reduce((sum, content) => sum + weight(content), 0);
  const digitalWeight = contents.filter((content) => content.kind === 'digital').reduce((sum, content) => sum + weight(content), 0);
  if (digitalWeight === all) return revenueThebe;
  return Math.floor((revenueThebe * digitalWeight) / all);
}

const ITEM_KEY_CHARS = 40;
const ITEM_NAME_CHARS = 120;

/**
 * The sale lines of an order (docs/reports.md#revenue-of-a-line): each single line, and each
 * package line (its contents are not sale lines), with its share of the order's total.
 */
export function saleLinesOf(order: SaleSource): NewSaleLine[] {
  const placedDay = reportDay(order.placedAt);
  const base = { orderId: order.orderId, schoolId: order.schoolId, placedDay };
  const lines: (Omit<NewSaleLine, 'revenueThebe' | 'orderFirst' | 'classFirst' | 'digitalThebe'> & { contents: SaleSource['packages'][number]['contents'] | null })[] = [
    ...order.singles.map((line) => ({
      ...base,
      albumId: line.albumId,
      studentId: line.studentId,
      itemKind: line.kind === 'digital' ? ('digital' as const) : ('print' as const),
      // order_items.product_type: the price list item's id, or a built-in product's id.
      itemKey: `product:${line.productId}`.slice(0, ITEM_KEY_CHARS),
      itemName: line.productName.slice(0, ITEM_NAME_CHARS),
      digital: line.kind === 'digital',
      quantity: line.quantity,
      listThebe: line.totalThebe,
      contents: null,
    })),
    ...order.packages.map((pkg) => ({
      ...base,
      // A package is one child's: its class is the class of its contents' photos.
      albumId: pkg.albumId ?? pkg.contents.find((content) => content.albumId !== null)?.albumId ?? null,
      studentId: pkg.studentId,
      itemKind: 'package' as const,
      itemKey: (pkg.packageId === null ? `package:name:${pkg.name}` : `package:${pkg.packageId}`).slice(0, ITEM_KEY_CHARS),
      itemName: pkg.name.slice(0, ITEM_NAME_CHARS),
      digital: pkg.contents.length > 0 && pkg.contents.every((content) => content.kind === 'digital'),
      quantity: pkg.quantity,
      listThebe: pkg.totalThebe,
      contents: pkg.contents,
      prepaid: pkg.prepaid ?? false,
    })),
  ];
  const shares = allocateRevenue(order.totalThebe, lines.map((line) => line.listThebe));
  return lines.map(({ contents, ...line }, index) => ({
    ...line,
    revenueThebe: shares[index] ?? 0,
    digitalThebe: digitalPart(shares[index] ?? 0, contents, line.digital),
    orderFirst: index === 0,
    classFirst: lines.findIndex((other) => other.albumId === line.albumId) === index,
  }));
}

/** Paid lines added to the season totals in one transaction of the roll-up job. */
export const ROLLUP_BATCH = 5_000;
/** Batches a run of the roll-up job takes at most, so one run holds its job lock briefly. */
export const ROLLUP_BATCHES_PER_RUN = 20;

/** Sale lines: written with the order, marked paid by the paying transaction, rolled up by the job. */
export function createSalesRecording(deps: Pick<Deps, 'knex'>) {
  const repo = createReportsRecordingRepository(deps.knex);
  return {
    /** In the order's creation transaction. */
    async orderPlaced(order: SaleSource, tx: Tx): Promise<void> {
      await repo.insertSalesLines(saleLinesOf(order), tx);
    },

    /**
     * In the transaction that marks the order paid (commerce.ts, `onPaidInTx`, once per paid
     * order): the day paid and the days since each line's class was published. Lines already
     * marked stay as they are, so a second call changes nothing.
     */
    async orderPaid(orderId: string, tx: Tx, at: number = Date.now()): Promise<void> {
      const paidDay = reportDay(at);
      for (const klass of await repo.unpaidLineClasses(orderId, tx)) {
        await repo.markPaid(orderId, klass.albumId, { paidDay, paidAt: at, publishOffset: publishOffset(at, klass.publishedAt) }, tx);
      }
    },

    /**
     * The roll-up job (docs/reports.md#how-the-figures-stay-fast): adds the paid lines not yet in
     * the season totals to them, ROLLUP_BATCH lines a transaction, at most ROLLUP_BATCHES_PER_RUN
     * batches a run. Returns how many lines it rolled up.
     */
    async rollUp(): Promise<number> {
      let rolled = 0;
      for (let batch = 0; batch < ROLLUP_BATCHES_PER_RUN; batch++) {
        const done = await repo.rollUpPaidLines(ROLLUP_BATCH);
        rolled += done;
        if (done < ROLLUP_BATCH) break;
      }
      return rolled;
    },
  };
}
export type SalesRecording = ReturnType<typeof createSalesRecording>;

/** A grant's visitor key: a keyed hash of the entry's tag and end, stable while that grant lives, revealing nothing. */
export function grantVisitor(secret: string): (entry: Pick<HeldEntry, 'tag' | 'exp'>) => string {
  const key = createHmac('sha256', secret).update('gallery-visitor-keys').digest();
  return (entry) => `g:${createHmac('sha256', key).update(`${entry.tag}:${entry.exp}`).digest('base64url').slice(0, 22)}`;
}

/** Visits already written by this process: a gallery page's repeated requests write once. */
const MEMO_SIZE = 20_000;
/** Classes whose school is known (a class never moves to another school). */
const SCHOOLS_OF_CLASSES = 20_000;

function boundedSet(limit: number) {
  const seen = new Set<string>();
  return {
    has: (key: string) => seen.has(key),
    add(key: string) {
      if (seen.size >= limit) seen.delete(seen.values().next().value as string);
      seen.add(key);
    },
  };
}

/**
 * Who opened a gallery (docs/reports.md, "Families who opened the gallery"): a child unlocked by
 * code, or a gallery grant seen at an unlock or on a class's photo list. One row per (visitor,
 * class, day); staff never count. Recording never fails the family's request: a failed write is
 * logged and forgotten.
 */
export function createVisitRecording(deps: Pick<Deps, 'knex' | 'logger' | 'config'>) {
  const repo = createReportsRecordingRepository(deps.knex);
  const visitorOf = grantVisitor(deps.config.jwtSecret);
  const written = boundedSet(MEMO_SIZE);
  const schoolOfClass = new Map<number, number>();

  async function record(visits: Omit<NewVisit, 'subject' | 'day' | 'createdAt'>[], at: number): Promise<void> {
    const day = reportDay(at);
    const fresh = visits
      .map((visit) => ({ ...visit, day, createdAt: at, subject: `${visit.visitor}:${visit.albumId ?? 0}:${day}` }))
      .filter((visit) => !written.has(visit.subject));
    if (fresh.length === 0) return;
    try {
      await repo.recordVisits(fresh);
      for (const visit of fresh) written.add(visit.subject);
    } catch (err) {
      deps.logger.warn({ err }, 'gallery visit not recorded');
    }
  }

  const childVisits = (children: readonly ChildPlace[]) =>
    children.map((child) => ({ schoolId: child.schoolId, albumId: child.albumId, studentId: child.studentId, kind: 'child' as const, visitor: `c:${child.studentId}` }));

  /** The entry that grants this class to a viewer: the school's (a family's school grant), else the class password's. */
  function grantingEntry(viewer: Viewer, held: HeldGrant, albumId: number, schoolId: number): HeldEntry | undefined {
    if (viewer.grant.schools.includes(schoolId)) return held.schools.find((entry) => entry.id === schoolId);
    if (viewer.grant.albums.includes(albumId)) return held.albums.find((entry) => entry.id === albumId);
    return undefined;
  }

  async function schoolOf(albumId: number): Promise<number | undefined> {
    const known = schoolOfClass.get(albumId);
    if (known !== undefined) return known;
    const found = await repo.schoolOfClass(albumId);
    if (found === undefined) return undefined;
    if (schoolOfClass.size >= SCHOOLS_OF_CLASSES) schoolOfClass.delete(schoolOfClass.keys().next().value as number);
    schoolOfClass.set(albumId, found);
    return found;
  }

  return {
    /** A child unlocked by their code (its class and school as the unlock read them). */
    async childOpened(child: ChildPlace, staff: boolean, at: number = Date.now()): Promise<void> {
      if (!staff) await record(childVisits([child]), at);
    },

    /** Children a cart restore granted: their class and school are looked up. */
    async childrenOpened(studentIds: readonly number[], staff: boolean, at: number = Date.now()): Promise<void> {
      if (staff || studentIds.length === 0) return;
      try {
        await record(childVisits(await repo.childPlaces(studentIds)), at);
      } catch (err) {
        deps.logger.warn({ err }, 'gallery visit not recorded');
      }
    },

    /** A school password accepted (or a school granted by a cart restore): `entry` is the school's entry just written. */
    async schoolOpened(schoolId: number, entry: HeldEntry | undefined, staff: boolean, at: number = Date.now()): Promise<void> {
      if (staff || !entry) return;
      await record([{ schoolId, albumId: null, studentId: null, kind: 'grant', visitor: visitorOf(entry) }], at);
    },

    /**
     * A granted viewer on a class: at its password unlock (`held` then includes the entry just
     * written) or listing its photos. Nothing for staff or a viewer holding only children's codes;
     * after the first time a process sees this visitor on this class today, nothing touches the database.
     */
    async classSeen(viewer: Viewer, held: HeldGrant, albumId: number, at: number = Date.now()): Promise<void> {
      if (viewer.staff || (viewer.grant.schools.length === 0 && viewer.grant.albums.length === 0)) return;
      try {
        const schoolId = await schoolOf(albumId);
        if (schoolId === undefined) return;
        const entry = grantingEntry(viewer, held, albumId, schoolId);
        if (entry) await record([{ schoolId, albumId, studentId: null, kind: 'grant', visitor: visitorOf(entry) }], at);
      } catch (err) {
        deps.logger.warn({ err }, 'gallery visit not recorded');
      }
    },
  };
}
export type VisitRecording = ReturnType<typeof createVisitRecording>;
