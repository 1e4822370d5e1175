import type { Knex } from 'knex';

/**
 * Fills sales_lines for the orders placed before the product wrote them (docs/reports.md,
 * "Revenue of a line"), so the season reports cover the whole season. New orders write their own
 * rows when placed and mark them when paid; this writes the same rows from what each order stored:
 *
 * - sale lines: the order_items rows without order_package_id (single lines, by id), then the
 *   order_packages rows (by id); a package's class is its contents' photos' class, and it is
 *   digital only when every content is;
 * - revenue: orders.total_thebe shared over the lines by their totals before discounts, each
 *   share floored and the thebe left over given to the largest remainders (ties: the earlier line);
 * - placed_day: the Botswana day of orders.created_at;
 * - a paid order (payment_status completed): paid_at is when its first completed payment was last
 *   updated (the one that paid it), else orders.updated_at; paid_day its Botswana day;
 *   publish_offset the days from the class's published_at (else its first photo) to that day.
 *
 * Orders that already have rows are left alone, so running it on a database where the product
 * already wrote some is safe. The rules are written out here because a migration never imports
 * application code (api/src/reports/allocate.ts and reports-recording.ts hold the same).
 */

const BATCH = 500;
const INSERT_CHUNK = 200;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Botswana keeps UTC+2 all year. */
const OFFSET_MS = 2 * 60 * 60 * 1000;

const dayNumber = (at: number): number => Math.floor((at + OFFSET_MS) / DAY_MS);
const yyyymmdd = (at: number): number => Number(new Date(at + OFFSET_MS).toISOString().slice(0, 10).replace(/-/g, ''));
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function allocate(total: number, lists: number[]): number[] {
  const subtotal = lists.reduce((sum, list) => sum + list, 0);
  if (subtotal <= 0 || total <= 0) return lists.map(() => 0);
  const shares = lists.map((list) => Math.floor((total * list) / subtotal));
  const remainders = lists.map((list) => (total * list) % subtotal);
  let left = total - shares.reduce((sum, share) => sum + share, 0);
  const order = lists.map((_, index) => index).sort((a, b) => (remainders[b] ?? 0) - (remainders[a] ?? 0) || a - b);
  for (const index of order) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

interface OrderRow {
  id: string;
  school_id: number;
  total_thebe: number;
  created_at: number;
  updated_at: number;
  payment_status: string;
}

interface Line {
  albumId: number | null;
  studentId: number | null;
  itemKind: 'print' | 'digital' | 'package';
  itemKey: string;
  itemName: string;
  digital: boolean;
  quantity: number;
  listThebe: number;
}

export async function up(knex: Knex): Promise<void> {
  let after = '';
  for (;;) {
    const orders = (await knex('orders as o')
      .where('o.id', '>', after)
      .whereNotExists(knex('sales_lines as sl').whereRaw('sl.order_id = o.id').select(knex.raw('1')))
      .orderBy('o.id')
      .limit(BATCH)
      .select('o.id', 'o.school_id', 'o.total_thebe', 'o.created_at', 'o.updated_at', 'o.payment_status')) as OrderRow[];
    const last = orders[orders.length - 1];
    if (!last) return;
    after = last.id;
    const ids = orders.map((order) => order.id);

    const items = (await knex('order_items').whereIn('order_id', ids).orderBy('id').select('order_id', 'album_id', 'student_id', 'product_type', 'product_name', 'kind', 'quantity', 'total_thebe', 'order_package_id')) as {
      order_id: string;
      album_id: number | null;
      student_id: number | null;
      product_type: string;
      product_name: string;
      kind: string;
      quantity: number;
      total_thebe: number;
      order_package_id: number | null;
    }[];
    const packages = (await knex('order_packages').whereIn('order_id', ids).orderBy('id').select('id', 'order_id', 'package_id', 'name', 'quantity', 'total_thebe', 'student_id')) as {
      id: number;
      order_id: string;
      package_id: number | null;
      name: string;
      quantity: number;
      total_thebe: number;
      student_id: number | null;
    }[];
    const payments = (await knex('payments').whereIn('order_id', ids).where('status', 'completed').orderBy([{ column: 'updated_at' }, { column: 'id' }]).select('order_id', 'updated_at')) as {
      order_id: string;
      updated_at: number;
    }[];
    const paidAt = new Map<string, number>();
    for (const payment of payments) if (!paidAt.has(payment.order_id)) paidAt.set(payment.order_id, Number(payment.updated_at));

    const albumIds = [...new Set(items.map((item) => num(item.album_id)).filter((id): id is number => id !== null))];
    const published = new Map<number, number | null>();
    if (albumIds.length > 0) {
      const albums = (await knex('albums').whereIn('id', albumIds).select('id', 'published_at')) as { id: number; published_at: number | null }[];
      const firsts = (await knex('photos').whereIn('album_id', albumIds).where('kind', 'photo').groupBy('album_id').select('album_id').min({ first: 'created_at' })) as {
        album_id: number;
        first: number | null;
      }[];
      const firstOf = new Map(firsts.map((row) => [Number(row.album_id), num(row.first)]));
      for (const album of albums) published.set(Number(album.id), num(album.published_at) ?? firstOf.get(Number(album.id)) ?? null);
    }

    const rows: Record<string, unknown>[] = [];
    for (const order of orders) {
      const own = items.filter((item) => item.order_id === order.id);
      const lines: Line[] = own
        .filter((item) => item.order_package_id === null)
        .map((item) => ({
          albumId: num(item.album_id),
          studentId: num(item.student_id),
          itemKind: item.kind === 'digital' ? 'digital' : 'print',
          itemKey: `product:${item.product_type}`.slice(0, 40),
          itemName: String(item.product_name).slice(0, 120),
          digital: item.kind === 'digital',
          quantity: Number(item.quantity),
          listThebe: Number(item.total_thebe),
        }));
      for (const pkg of packages.filter((candidate) => candidate.order_id === order.id)) {
        const contents = own.filter((item) => num(item.order_package_id) === Number(pkg.id));
        lines.push({
          albumId: contents.map((item) => num(item.album_id)).find((id) => id !== null) ?? null,
          studentId: num(pkg.student_id),
          itemKind: 'package',
          itemKey: (pkg.package_id === null ? `package:name:${pkg.name}` : `package:${pkg.package_id}`).slice(0, 40),
          itemName: String(pkg.name).slice(0, 120),
          digital: contents.length > 0 && contents.every((item) => item.kind === 'digital'),
          quantity: Number(pkg.quantity),
          listThebe: Number(pkg.total_thebe),
        });
      }
      const shares = allocate(Number(order.total_thebe), lines.map((line) => line.listThebe));
      const paid = order.payment_status === 'completed' ? (paidAt.get(order.id) ?? Number(order.updated_at)) : null;
      lines.forEach((line, index) => {
        const publishedAt = line.albumId === null ? null : (published.get(line.albumId) ?? null);
        rows.push({
          order_id: order.id,
          school_id: Number(order.school_id),
          album_id: line.albumId,
          student_id: line.studentId,
          item_kind: line.itemKind,
          item_key: line.itemKey,
          item_name: line.itemName,
          digital: line.digital,
          order_first: index === 0,
          class_first: lines.findIndex((other) => other.albumId === line.albumId) === index,
          quantity: line.quantity,
          list_thebe: line.listThebe,
          revenue_thebe: shares[index] ?? 0,
          placed_day: yyyymmdd(Number(order.created_at)),
          paid_day: paid === null ? null : yyyymmdd(paid),
          paid_at: paid,
          publish_offset: paid === null || publishedAt === null ? null : Math.max(0, dayNumber(paid) - dayNumber(publishedAt)),
        });
      });
    }
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) await knex('sales_lines').insert(rows.slice(start, start + INSERT_CHUNK));
  }
}

/** The rows stay: they are what the product writes anyway, and the table goes with its own migration. */
export async function down(): Promise<void> {}
