/** The page a short link that leads nowhere answers with (docs/sms.md, "Short links"). */
export const SHORT_LINK_MSG = {
  notFoundTitle: 'This link has expired',
  notFoundBody: 'The link from your SMS is no longer valid, or was typed with a mistake. Open the shop to find your photos.',
  openShop: 'Open the shop',
} as const;
