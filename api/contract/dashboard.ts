import { z } from 'zod';

export const dashboardStatsSchema = z.object({
  totalPhotos: z.number(),
  activeOrders: z.number(),
  /** Decimal string in Pula, from completed payments only. */
  totalRevenue: z.string(),
  totalSchools: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
