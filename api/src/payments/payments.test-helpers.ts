import { startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, parentFor, type Shop } from '../../test/shop';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';

/** The sandbox's public test key, which signs callbacks in the payment suites. */
export const KEY = 'secret';

/** A payment suite's world: a server sending mail to a real SMTP catcher, a shop and a parent. */
export interface World {
  server: TestServer;
  shop: Shop;
  parent: Client;
  mail: MailCatcher;
}

export async function world(env: Record<string, string> = {}): Promise<World> {
  const mail = await startMailCatcher();
  const server = await startTestServer({ SMTP_URL: mail.url, SANDBOX_NOTIFY_RETRY_MS: '50', ...env });
  const shop = await createShop(server);
  const parent = await parentFor(server, shop);
  return { server, shop, parent, mail };
}
