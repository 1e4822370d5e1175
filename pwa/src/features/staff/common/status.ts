import { ORDER_STATUS_LABELS, type OrderStatus } from '@contract/constants';
import type { BadgeTone } from '../../../components/ui/badge';

/** Recent Orders shows the raw status with underscores replaced. */
export const statusWords = (status: string): string => status.replace(/_/g, ' ');

export const statusLabel = (status: OrderStatus): string => ORDER_STATUS_LABELS[status] ?? statusWords(status);

export const STATUS_TONE: Record<OrderStatus, BadgeTone> = {
  pending: 'yellow',
  paid: 'blue',
  being_processed: 'purple',
  at_printers: 'indigo',
  ready_for_delivery: 'indigo',
  delivered: 'green',
  cancelled: 'red',
};

export const PAYMENT_TONE: Record<string, BadgeTone> = { pending: 'yellow', completed: 'green', failed: 'red' };
