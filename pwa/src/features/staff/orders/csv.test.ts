import { describe, expect, it } from 'vitest';
import type { Order } from '@contract/orders';
import { PREPAID_MSG } from '@contract/prepaid';
import { CSV_COLUMNS, csvField, csvFileName, ordersToCsv } from './csv';
import { parseCsv } from '../../../../test/parse-csv';
import { fullOrder, orderItem, packageOrder } from '../../../../test/order-fixture';

const item = (over: Partial<Order['items'][number]> = {}): Order['items'][number] =>
  orderItem({ productType: '5', quantity: 2, unitPrice: '25.00', totalPrice: '50.00', ...over });

const order = (over: Partial<Order> = {}): Order =>
  fullOrder({
    totalAmount: '65.00',
    orderStatus: 'at_printers',
    status: 'at_printers',
    paymentStatus: 'completed',
    createdAt: '2025-03-14T09:30:00.000Z',
    items: [item(), item({ id: 2, productName: 'Digital Copy', quantity: 1, photoOriginalName: 'IMG_0424.JPG' })],
    ...over,
  });

describe('orders CSV', () => {
  it('has exactly the spec columns in order, then Payment Method last', () => {
    const [header] = parseCsv(ordersToCsv([]));
    expect(header).toEqual(['Order Number', 'School Name', 'Class/Album', 'Customer Name', 'Student Name', 'Date', 'Order Details', 'Total Amount', 'Payment Status', 'Order Status', 'Payment Method']);
    expect(CSV_COLUMNS).toHaveLength(11);
  });

  it('writes the chosen payment method and what the gateway reported in the last column, defused like any cell', () => {
    const rows = parseCsv(
      ordersToCsv([
        order({ paymentMethod: 'bank_transfer', gatewayPayMethod: 'BT', gatewayPayMethodDetail: 'SID' }),
        order({ id: 'CARD000001', paymentMethod: 'card', gatewayPayMethod: 'CC', gatewayPayMethodDetail: 'Visa' }),
        order({ id: 'OLD0000001' }),
        order({ id: 'ODD0000001', paymentMethod: null, gatewayPayMethod: '=cmd', gatewayPayMethodDetail: 'x,y' }),
      ]),
    );
    expect(rows.map((row) => row.length)).toEqual([11, 11, 11, 11, 11]);
    expect(rows.slice(1).map((row) => row[10])).toEqual(['Bank transfer (BT SID)', 'Card (CC Visa)', '', "'=cmd x,y"]);
    expect(rows[1]![9]).toBe('At Printers');
  });

  it('writes one row per order, column by column', () => {
    const rows = parseCsv(ordersToCsv([order()]));
    expect(rows).toHaveLength(2);
    const [number, school, album, customer, student, date, details, total, payment, status, method] = rows[1]!;
    expect([number, school, album, customer, student]).toEqual(['K7Q2M9XD3P', 'Acacia Primary', 'Grade 1A', 'Mpho Dube', 'Neo Dube']);
    expect(date).toMatch(/^2025-03-1[45]$/);
    expect(details).toBe('10x15 Print x2 (IMG_0423.JPG); Digital Copy x1 (IMG_0424.JPG)');
    // A number a spreadsheet sums (in pula), not "P65.00".
    expect([total, payment, status]).toEqual(['65.00', 'completed', 'At Printers']);
    expect(Number(total)).toBe(65);
    expect(method).toBe('');
  });

  it("names each line's own child in an order for two children", () => {
    const both = 'Bonolo Mosweu, Kgalalelo Setshwaelo';
    const rows = parseCsv(
      ordersToCsv([order({ studentName: both, items: [item({ studentName: 'Bonolo Mosweu' }), item({ id: 2, photoOriginalName: 'IMG_0424.JPG', studentName: 'Kgalalelo Setshwaelo' }), item({ id: 3, photoOriginalName: 'GROUP.JPG', studentName: both })] })]),
    );
    expect(rows[1]![6]).toBe('10x15 Print x2 (IMG_0423.JPG, Bonolo Mosweu); 10x15 Print x2 (IMG_0424.JPG, Kgalalelo Setshwaelo); 10x15 Print x2 (GROUP.JPG)');
  });

  it('writes a package as one entry with its contents, then each discount, keeping the columns', () => {
    const rows = parseCsv(ordersToCsv([packageOrder()]));
    expect(rows[1]).toHaveLength(11);
    expect(rows[1]![6]).toBe(
      'Glossy Print x1 (IMG_0423.JPG, Neo Dube); ' +
        'Family Pack x1 P100.00 (Tumelo Dube) [Large Print x1 (IMG_0501.JPG), Glossy Print x2 (IMG_0502.JPG), HD Download x1 (IMG_0501.JPG)]; ' +
        'Sibling discount -P13.00; Coupon SPRING10 -P11.70',
    );
    // The total is what was charged, after the discounts.
    expect(rows[1]![7]).toBe('105.30');
  });

  it('says where a package ordered before picture day stands: waiting, chosen by family or studio, flagged', () => {
    const prepaid = (over: Partial<Order['packages'][number]>, items: Order['items'] = []) => {
      const base = packageOrder();
      return packageOrder({ items, packages: [{ ...base.packages[0]!, prepaid: true, photosChosen: false, posesChosenBy: null, posesDue: '2026-12-11', noPhotoAtClosing: false, ...over }] });
    };
    const details = (o: Order) => parseCsv(ordersToCsv([o]))[1]![6];
    expect(details(prepaid({}))).toBe(`Family Pack x1 P100.00 (Tumelo Dube) [${PREPAID_MSG.staffWaiting}]; Sibling discount -P13.00; Coupon SPRING10 -P11.70`);
    const filled = [orderItem({ id: 9, productName: 'Glossy Print', quantity: 2, photoOriginalName: 'IMG_0601.JPG', photoName: 'IMG_0601.JPG', studentName: 'Tumelo Dube', unitPrice: '0.00', totalPrice: '0.00', packageLineId: 40 })];
    expect(details(prepaid({ photosChosen: true, posesChosenBy: 'studio' }, filled))).toContain(`[Glossy Print x2 (IMG_0601.JPG)] [${PREPAID_MSG.staffChosenByStudio}]`);
    expect(details(prepaid({ photosChosen: true, posesChosenBy: 'family' }, filled))).toContain(`[${PREPAID_MSG.staffChosenByFamily}]`);
    expect(details(prepaid({ noPhotoAtClosing: true }))).toContain(`[${PREPAID_MSG.noPhotoAtClosing}]`);
  });

  it('quotes commas, quotes and line breaks (RFC 4180) and uses CRLF rows', () => {
    const text = ordersToCsv([order({ customerName: 'Dube, Mpho', studentName: 'Neo "Junior" Dube', albumName: 'Grade\n1A' })]);
    expect(text).toContain('"Dube, Mpho"');
    expect(text).toContain('"Neo ""Junior"" Dube"');
    expect(text).toContain('"Grade\n1A"');
    expect(text.endsWith('\r\n')).toBe(true);
    const row = parseCsv(text)[1]!;
    expect(row.slice(2, 5)).toEqual(['Grade\n1A', 'Dube, Mpho', 'Neo "Junior" Dube']);
  });

  it('defuses spreadsheet formulas and marks test payments', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    // A spreadsheet in a semicolon locale splits the field at ";": the piece after it is text too.
    expect(csvField('Neo; =1+1')).toBe("Neo; '=1+1");
    expect(csvField('Neo,@SUM(A1)')).toBe('"Neo,\'@SUM(A1)"');
    expect(csvField('a|+1\t-2')).toBe("a|'+1\t'-2");
    expect(csvField(null)).toBe('');
    expect(parseCsv(ordersToCsv([order({ testPayment: true })]))[1]![8]).toBe('completed (test payment)');
  });

  it('names the file orders_{date}.csv', () => {
    expect(csvFileName(new Date(2025, 2, 4, 10))).toBe('orders_2025-03-04.csv');
  });
});
