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
