import { z } from 'zod';

export const dashboardStatsSchema = z.object({
  totalPhotos: z.number(),
  activeOrders: z.number(),
  /** Decimal string in Pula, from completed payments only. */
  totalRevenue: z.string(),
  totalSchools: z.number(),
  /** Paid packages ordered before picture day whose photos nobody has chosen yet (docs/prepaid.md). */
  packagesWaitingForPhotos: z.number(),
  /** Of those, the ones the closing date's fill flagged: the child had no photo, arrange a retake or refund. */
  packagesWithoutPhoto: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
