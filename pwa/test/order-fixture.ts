/** A whole order as `GET /api/orders/{id}` answers it, for component tests; override what a test is about. */
import type { Order, OrderItem } from '@contract/orders';

export const orderItem = (over: Partial<OrderItem> = {}): OrderItem => ({
  id: 1,
  photoId: 11,
  albumId: 3,
  photoName: 'IMG_0423.JPG',
  photoOriginalNumber: '0423',
  photoOriginalName: 'IMG_0423.JPG',
  photoFilename: 'abc.jpg',
  photoNumber: '0423',
  studentId: null,
  studentName: 'Neo Dube',
  productType: 'print_10x15',
  productName: '10x15 Print',
  productDescription: '',
  quantity: 1,
  unitPrice: '25.00',
  totalPrice: '25.00',
  digital: false,
  downloadUrl: null,
  withdrawn: false,
  movedAfterSale: false,
  packageLineId: null,
  ...over,
});

export const fullOrder = (over: Partial<Order> = {}): Order => ({
  id: 'K7Q2M9XD3P',
  customerName: 'Mpho Dube',
  customerEmail: 'mpho@example.com',
  customerPhone: null,
  studentName: 'Neo Dube',
  totalAmount: '25.00',
  orderStatus: 'pending',
  status: 'pending',
  paymentStatus: 'pending',
  paymentReference: null,
  notes: null,
  createdAt: '2026-11-26T09:30:00.000Z',
  school: { id: 1, name: 'Acacia Primary' },
  albumName: 'Grade 1A',
  items: [orderItem()],
  testPayment: false,
  duplicatePayments: 0,
  paidAfterCancel: 0,
  paidWithWithdrawn: 0,
  printBatchId: null,
  movedPhotos: 0,
  packages: [],
  subtotal: '25.00',
  siblingDiscount: '0.00',
  couponCode: null,
  couponDiscount: '0.00',
  paymentMethod: null,
  gatewayPayMethod: null,
  gatewayPayMethodDetail: null,
  awaitingPayment: null,
  paidAfterExpiry: 0,
  ...over,
});

/** A fetch stand-in answering JSON by "METHOD /path"; unknown requests fail the test loudly. */
export type Route = (request: { method: string; path: string; body: unknown }) => { status: number; body: unknown } | undefined;

export function fakeFetch(route: Route) {
  const calls: { method: string; path: string; body: unknown; cache: RequestCache | undefined }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : null;
    const request = { method, path: url.pathname, body };
    calls.push({ ...request, cache: init.cache });
    const answer = route(request);
    if (!answer) throw new Error(`unexpected request ${method} ${url.pathname}`);
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
  };
  return { fetch, calls };
}

/**
 * A paid order for two children with a single print, a Family Pack (P100.00 for contents worth
 * P137.50, Tumelo's), a sibling discount and a coupon: P130.00 - P13.00 - P11.70 = P105.30.
 */
export const packageOrder = (over: Partial<Order> = {}): Order =>
  fullOrder({
    id: 'PKG7Q2M9XD3P',
    studentName: 'Neo Dube, Tumelo Dube',
    orderStatus: 'paid',
    status: 'paid',
    paymentStatus: 'completed',
    totalAmount: '105.30',
    subtotal: '130.00',
    siblingDiscount: '13.00',
    couponCode: 'SPRING10',
    couponDiscount: '11.70',
    items: [
      orderItem({ id: 1, productType: '5', productName: 'Glossy Print', quantity: 1, unitPrice: '30.00', totalPrice: '30.00' }),
      orderItem({ id: 2, productType: '6', productName: 'Large Print', studentName: 'Tumelo Dube', photoOriginalName: 'IMG_0501.JPG', photoName: 'IMG_0501.JPG', photoNumber: '0501', photoOriginalNumber: '0501', unitPrice: '0.00', totalPrice: '0.00', packageLineId: 40 }),
      orderItem({ id: 3, productType: '5', productName: 'Glossy Print', quantity: 2, studentName: 'Tumelo Dube', photoOriginalName: 'IMG_0502.JPG', photoName: 'IMG_0502.JPG', photoNumber: '0502', photoOriginalNumber: '0502', unitPrice: '0.00', totalPrice: '0.00', packageLineId: 40 }),
      orderItem({ id: 4, productType: '7', productName: 'HD Download', digital: true, downloadUrl: 'https://photos.example.bw/api/downloads/4?sig=x', studentName: 'Tumelo Dube', photoOriginalName: 'IMG_0501.JPG', photoName: 'IMG_0501.JPG', photoNumber: '0501', photoOriginalNumber: '0501', unitPrice: '0.00', totalPrice: '0.00', packageLineId: 40 }),
    ],
    packages: [{ id: 40, packageId: 9, name: 'Family Pack', quantity: 1, unitPrice: '100.00', totalPrice: '100.00', itemsValue: '137.50', studentId: 21, studentName: 'Tumelo Dube', photosChosen: true, posesChosenBy: 'family', posesDue: null, prepaid: false, noPhotoAtClosing: false }],
    ...over,
  });
