/** Every route string of the app, in one place (features link with these too). */
export const paths = {
  home: '/',
  howItWorks: '/how-it-works',
  help: '/help',
  privacy: '/privacy',
  school: (slug: string) => `/school/${encodeURIComponent(slug)}`,
  schoolPattern: '/school/:slug',
  checkout: '/checkout',
  orderConfirmation: (orderId: string) => `/order-confirmation/${encodeURIComponent(orderId)}`,
  orderConfirmationPattern: '/order-confirmation/:orderId',
  userAuth: '/user-auth',
  customerAuth: '/customer/auth',
  customerOrders: '/customer/orders',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  // Private student codes: a flyer's QR code opens /code/{CODE}; the family's children live at /children.
  code: (code: string) => `/code/${encodeURIComponent(code)}`,
  codePattern: '/code/:code',
  children: '/children',
  child: (studentId: number) => `/children?student=${studentId}`,
  // Links in guardians' e-mails (docs/outreach.md): the confirmation's page (its button confirms), one-click unsubscribe, a cart brought back.
  confirmEmail: '/confirm-email',
  unsubscribe: '/unsubscribe',
  // The "Stop SMS" link of a season SMS (docs/sms.md, "Opting out"): its button stops them.
  stopSms: '/stop-sms',
  cartRestore: '/cart/restore',
  // Staff: the dashboard and order management each have two spellings.
  photographer: '/photographer',
  staffDashboard: '/photographer/dashboard',
  staffDashboardAlias: '/photographer-dashboard',
  staffOrders: '/photographer/orders',
  orderManagement: '/order-management',
  staffClasses: (schoolId: number | string) => `/photographer/schools/${encodeURIComponent(String(schoolId))}/classes`,
  staffClassesPattern: '/photographer/schools/:schoolId/classes',
  // A school's season messages: schedule, preview, tests, statistics, guardians (docs/outreach.md).
  staffMessages: (schoolId: number | string) => `/photographer/schools/${encodeURIComponent(String(schoolId))}/messages`,
  staffMessagesPattern: '/photographer/schools/:schoolId/messages',
  staffRecovery: '/photographer/recovery',
  staffRestore: '/photographer/restore',
  // The e-mailed staff reset link opens staffResetPassword (docs/accounts.md, "Staff passwords").
  staffForgotPassword: '/photographer/forgot-password',
  staffResetPassword: '/photographer/reset-password',
} as const;
