import { isDigitalProduct } from '../../contract/constants';
import { thebeToDecimal } from '../../contract/money';
import type { Order } from '../../contract/orders';
import { toIso } from '../db/knex';
import type { OrderRecord } from './orders.repository';

/** Allow-listed output of an order; download links only once it is paid. */
export function presentOrder(record: OrderRecord, downloadUrl: (orderId: string, itemId: number) => string): Order {
  const { order, items } = record;
  const paid = order.payment_status === 'completed' && order.order_status !== 'cancelled';
  return {
    id: order.id,
    customerName: order.customer_name,
    customerEmail: order.customer_email,
    customerPhone: order.customer_phone,
    studentName: order.student_name,
    totalAmount: thebeToDecimal(Number(order.total_thebe)),
    orderStatus: order.order_status,
    status: order.order_status,
    paymentStatus: order.payment_status,
    paymentReference: order.payment_reference,
    notes: order.notes,
    createdAt: toIso(order.created_at),
    school: { id: Number(order.school_id), name: order.school_name },
    albumName: order.album_name,
    testPayment: Number(order.test_payment ?? 0) === 1,
    duplicatePayments: Number(order.duplicate_payments ?? 0),
    printBatchId: order.print_batch_id === null || order.print_batch_id === undefined ? null : Number(order.print_batch_id),
    items: items.map((item) => {
      const digital = isDigitalProduct(item.product_type, item.product_name);
      return {
        id: Number(item.id),
        photoId: item.photo_id === null ? null : Number(item.photo_id),
        albumId: item.album_id === null ? null : Number(item.album_id),
        photoName: item.photo_name,
        photoOriginalNumber: item.photo_original_number,
        photoOriginalName: item.photo_original_name,
        photoFilename: item.photo_filename,
        studentId: item.student_id === null || item.student_id === undefined ? null : Number(item.student_id),
        productType: item.product_type,
        productName: item.product_name,
        productDescription: item.product_description,
        quantity: Number(item.quantity),
        unitPrice: thebeToDecimal(Number(item.unit_thebe)),
        totalPrice: thebeToDecimal(Number(item.total_thebe)),
        digital,
        downloadUrl: paid && digital && item.photo_id !== null ? downloadUrl(order.id, Number(item.id)) : null,
      };
    }),
  };
}
