/** Query keys of the staff screens; every key starts with 'staff' so logout can drop them all. */
export const staffKeys = {
  all: ['staff'] as const,
  registration: ['staff', 'registration'] as const,
  stats: ['staff', 'stats'] as const,
  schools: ['staff', 'schools'] as const,
  school: (id: number) => ['staff', 'schools', id] as const,
  albumPhotos: (albumId: number) => ['staff', 'albums', albumId, 'photos'] as const,
  albumStudents: (albumId: number) => ['staff', 'albums', albumId, 'students'] as const,
  albumTray: (albumId: number) => ['staff', 'albums', albumId, 'tray'] as const,
  albumReview: (albumId: number) => ['staff', 'albums', albumId, 'review'] as const,
  /** Everything of one class (photos, students, tray, review sheet). */
  album: (albumId: number) => ['staff', 'albums', albumId] as const,
  priceLists: ['staff', 'price-lists'] as const,
  coupons: ['staff', 'coupons'] as const,
  photographers: ['staff', 'photographers'] as const,
  /** The admins' audit log (docs/accounts.md, "The audit log"). */
  auditLog: ['staff', 'audit-log'] as const,
  orders: (filters: { status: string; school: string }) => ['staff', 'orders', filters] as const,
  ordersAll: ['staff', 'orders'] as const,
  missing: ['staff', 'photos', 'missing'] as const,
  /** Everything of one school's Messages screen (schedule, preview, statistics, guardians). */
  messages: (schoolId: number) => ['staff', 'messages', schoolId] as const,
  messageSchedule: (schoolId: number) => ['staff', 'messages', schoolId, 'schedule'] as const,
  messagePreview: (schoolId: number) => ['staff', 'messages', schoolId, 'preview'] as const,
  messageStats: (schoolId: number) => ['staff', 'messages', schoolId, 'stats'] as const,
  guardians: (schoolId: number) => ['staff', 'messages', schoolId, 'guardians'] as const,
  /** The Reports tab: the table for a range, and the sales over time for a range, school, class and period. */
  reports: ['staff', 'reports'] as const,
  schoolsReport: (range: { from: string | null; to: string | null }) => ['staff', 'reports', 'schools', range] as const,
  salesReport: (query: { from: string | null; to: string | null; schoolId: number | null; albumId: number | null; by: string }) => ['staff', 'reports', 'sales', query] as const,
};
