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

/** The client address used for rate limits: the socket unless TRUST_PROXY is set (checklist B3). */
export function clientIp(ctx: AppContext): string {
  return ctx.ip || ctx.req.socket.remoteAddress || 'unknown';
}
