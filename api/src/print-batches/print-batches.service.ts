import type { Readable } from 'node:stream';
import { ORDER_STATUS_LABELS } from '../../contract/constants';
import { MSG, PRINT_BATCH_MSG } from '../../contract/messages';
import {
  PRINT_READY_ORDER_STATUSES,
  orderStatusRank,
  statusesBefore,
  type PrintBatchStatus,
} from '../../contract/print-batches';
import type { Deps } from '../deps';
import { createDatabase } from '../db/database';
import { now } from '../db/knex';
import { conflict, notFound } from '../http/errors';
import type { MediaService } from '../media/media.types';
import { isDeadlock, isLockTimeout, isUniqueViolation } from '../db/errors';
import { compareNames, formatDate } from '../../contract/format';
import { planBatch, type BatchPlan } from './batch-plan';
import { streamBatchZip } from './batch-zip';
import { labelsPdf } from './labels-pdf';
import { packingListPdf } from './packing-list-pdf';
import { createPrintBatchRepository, type PrintBatchRecord, type ReadinessRecord } from './print-batches.repository';
import type { PrintBatchLinkClaims } from './download-links';

export interface PrintBatchDeps extends Pick<Deps, 'knex' | 'dialect' | 'logger'> {
  media: Pick<MediaService, 'openOriginal'>;
  businessName: string;
}

/** A batch loaded and checked, ready to be turned into the lab's files. */
export interface BatchFiles {
  batch: PrintBatchRecord;
  plan: BatchPlan;
}

const CREATE_ATTEMPTS = 3;

/** When the batch's documents changed, in Botswana time, or null (docs/statuses.md, "Print batches"). */
const changedOn = (batch: PrintBatchRecord): string | null => (batch.documentsChangedAt === null ? null : formatDate(batch.documentsChangedAt, 'long'));


export function createPrintBatchService(deps: PrintBatchDeps) {
  const repo = createPrintBatchRepository(deps.knex, deps.dialect);
  const database = createDatabase(deps.knex);

  async function find(id: number): Promise<PrintBatchRecord> {
    const batch = await repo.find(id);
    if (!batch) throw notFound(PRINT_BATCH_MSG.notFound);
    return batch;
  }

  /**
   * One transaction: take the school's ready orders, record the batch, link them (the primary key
   * on the link refuses an order already taken) and move them to at_printers. A twin request for
   * the same school either waits for this one and finds nothing left, or collides on the link;
   * both end in a 409 and nothing half-written.
   */
  async function insertBatch(schoolId: number): Promise<number> {
    return database.transaction(async (tx) => {
      const orderIds = await repo.readyOrderIds(schoolId, tx);
      if (orderIds.length === 0) throw conflict(PRINT_BATCH_MSG.nothingReady, 'NOTHING_TO_PRINT');
      const at = now();
      const batchId = await repo.insertBatch(schoolId, 'at_printers', at, tx);
      await repo.linkOrders(batchId, orderIds, tx);
      const moved = await repo.moveOrders(orderIds, 'at_printers', PRINT_READY_ORDER_STATUSES, at, tx);
      if (moved !== orderIds.length) throw conflict(PRINT_BATCH_MSG.createRace, 'PRINT_BATCH_RACE');
      return batchId;
    });
  }

  return {
    async readiness(): Promise<ReadinessRecord[]> {
      return (await repo.readiness()).sort((a, b) => compareNames(a.schoolName, b.schoolName) || a.schoolId - b.schoolId);
    },

    async create(schoolId: number): Promise<PrintBatchRecord> {
      if (!(await repo.school(schoolId))) throw notFound(MSG.schoolNotFound);
      for (let attempt = 1; ; attempt++) {
        try {
          return await find(await insertBatch(schoolId));
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict(PRINT_BATCH_MSG.createRace, 'PRINT_BATCH_RACE');
          if (isDeadlock(err) && attempt < CREATE_ATTEMPTS) continue;
          if (isDeadlock(err) || isLockTimeout(err)) throw conflict(PRINT_BATCH_MSG.createRace, 'PRINT_BATCH_RACE');
          throw err;
        }
      }
    },

    get: (id: number): Promise<PrintBatchRecord> => find(id),

    list: (filter: { schoolId?: number }): Promise<PrintBatchRecord[]> => repo.list(filter),

    /**
     * Moves the batch and every order in it forward to `status`, in one transaction. An order
     * already further on (moved by hand) stays there; a cancelled one stays cancelled.
     */
    async setStatus(id: number, status: PrintBatchStatus): Promise<PrintBatchRecord> {
      await database.transaction(async (tx) => {
        const current = await repo.lockStatus(id, tx);
        if (!current) throw notFound(PRINT_BATCH_MSG.notFound);
        if (orderStatusRank(status) < orderStatusRank(current)) {
          throw conflict(PRINT_BATCH_MSG.statusBackwards(ORDER_STATUS_LABELS[current], ORDER_STATUS_LABELS[status]), 'PRINT_BATCH_STATUS_BACKWARDS');
        }
        const at = now();
        // An order set back to pending by hand is not moved on with the batch: it waits for staff.
        await repo.moveBatchOrders(id, status, statusesBefore(status).filter((from) => from !== 'pending'), at, tx);
        await repo.setStatus(id, status, at, tx);
      });
      return find(id);
    },

    /** The batch with its orders planned: for its detail screen, and everything a download needs before its first byte is sent. */
    async files(id: number): Promise<BatchFiles> {
      const batch = await find(id);
      return { batch, plan: planBatch(await repo.contents(id)) };
    },

    zip({ batch, plan }: BatchFiles): Readable {
      return streamBatchZip({ schoolName: batch.schoolName, orders: plan.active, date: new Date(batch.createdAt) }, deps);
    },

    /** Dated as the photographer and the school count days: in Botswana time. */
    packingList: ({ batch, plan }: BatchFiles): Promise<Buffer> =>
      packingListPdf({ businessName: deps.businessName, schoolName: batch.schoolName, batchId: batch.id, date: formatDate(batch.createdAt, 'long'), changed: changedOn(batch), orders: plan.envelopes }),

    labels: ({ batch, plan }: BatchFiles): Promise<Buffer> =>
      labelsPdf({ businessName: deps.businessName, schoolName: batch.schoolName, batchId: batch.id, changed: changedOn(batch), orders: plan.envelopes }),

    /** A signed link stays good only while the staff member who asked for it does. */
    async linkHolderValid(claims: PrintBatchLinkClaims): Promise<boolean> {
      const validAfter = await repo.staffValidAfter(claims.staffId);
      return validAfter !== undefined && claims.issuedAt >= validAfter;
    },
  };
}
export type PrintBatchService = ReturnType<typeof createPrintBatchService>;
