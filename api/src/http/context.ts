import type { ParameterizedContext, DefaultContext, Next } from 'koa';
import type { StaffRole } from '../../contract/constants';

export interface StaffPrincipal {
  kind: 'staff';
  id: number;
  role: StaffRole;
  email: string;
}
export interface CustomerPrincipal {
  kind: 'customer';
  id: number;
  email: string;
}
export type Principal = StaffPrincipal | CustomerPrincipal | { kind: 'anonymous' };

export interface AppState {
  requestId: string;
  principal: Principal;
  /** Set when a bearer token was sent but could not be accepted. */
  authError?: 'invalid' | 'expired';
}

export type AppContext = ParameterizedContext<AppState, DefaultContext>;
export type Middleware = (ctx: AppContext, next: Next) => Promise<unknown>;

/**
 * The client address used for rate limits: the socket unless TRUST_PROXY is set, so a client cannot
 * rotate X-Forwarded-For to escape every limit (docs/access.md, "The client address").
 */
export function clientIp(ctx: AppContext): string {
  return ctx.ip || ctx.req.socket.remoteAddress || 'unknown';
}

/**
 * The client's network for rate limits that have no natural target: the /24 of an IPv4 address,
 * the /48 of an IPv6 one.
 */
export function clientNetwork(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (ip.includes(':')) {
    const [head = ''] = ip.split('::');
    const groups = head.split(':').filter(Boolean);
    while (groups.length < 3) groups.push('0');
    return `${groups.slice(0, 3).join(':').toLowerCase()}::/48`;
  }
  return ip;
}

/**
 * The key a client is counted under by the rate limits: an IPv4 address as it is (a carrier's
 * shared address is one client), an IPv6 address by its /64, the block one subscriber is given,
 * so hopping addresses inside it buys nothing (docs/access.md, "Limits that slow a guesser").
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [address = ''] = ip.toLowerCase().split('%');
  const [head = '', tail] = address.split('::');
  const left = head.split(':').filter(Boolean);
  const right = tail === undefined ? [] : tail.split(':').filter(Boolean);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
