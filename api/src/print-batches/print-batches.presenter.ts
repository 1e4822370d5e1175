import type { PrintBatch, PrintBatchDetail, PrintReadiness } from '../../contract/print-batches';
import { PRINT_BATCH_MSG } from '../../contract/messages';
import { toIso } from '../db/knex';
import type { BatchPlan } from './batch-plan';
import type { PrintBatchRecord, ReadinessRecord } from './print-batches.repository';

export function presentPrintBatch(batch: PrintBatchRecord): PrintBatch {
  return {
    id: batch.id,
    schoolId: batch.schoolId,
    schoolName: batch.schoolName,
    status: batch.status,
    orderCount: batch.orderCount,
    printCount: batch.printCount,
    createdAt: toIso(batch.createdAt),
    updatedAt: toIso(batch.updatedAt),
    documentsChangedAt: batch.documentsChangedAt === null ? null : toIso(batch.documentsChangedAt),
  };
}

export function presentPrintBatchDetail(batch: PrintBatchRecord, plan: BatchPlan): PrintBatchDetail {
  return {
    ...presentPrintBatch(batch),
    orders: plan.orders.map((order) => ({
      id: order.id,
      studentName: order.studentName,
      customerName: order.customerName,
      className: order.className,
      orderStatus: order.orderStatus,
      items: order.lines.map((line) => ({
        id: line.itemId,
        productName: line.productName,
        packageName: line.packageName,
        quantity: line.quantity,
        photoName: line.photoName,
        photoOriginalNumber: line.originalNumber,
        studentName: line.studentName,
      })),
    })),
    leftOut: plan.leftOut.map(({ orderId, line, reason }) => ({
      orderId,
      itemId: line.itemId,
      studentName: line.studentName,
      productName: line.productName,
      packageName: line.packageName,
      quantity: line.quantity,
      photoName: line.photoName,
      reason,
      reasonText: PRINT_BATCH_MSG.leftOutReasons[reason],
    })),
    fileCount: plan.fileCount,
    originalsBytes: plan.originalsBytes,
  };
}

export function presentReadiness(record: ReadinessRecord): PrintReadiness {
  return { schoolId: record.schoolId, schoolName: record.schoolName, orderCount: record.orderCount, printCount: record.printCount };
}
