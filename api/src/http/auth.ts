import jwt from 'jsonwebtoken';
import { MSG } from '../../contract/messages';
import type { StaffRole } from '../../contract/constants';
import { forbidden, unauthorized } from './errors';
import { hmacKey } from './signing-key';
import type { AppContext, Middleware } from './context';
import type { PrincipalsRepository } from './principals.repository';

const ALGORITHM = 'HS256' as const;
const STAFF_AUDIENCE = 'staff';
const CUSTOMER_AUDIENCE = 'customer';
const STAFF_TTL = '12h';
const CUSTOMER_TTL = '30d';

export interface TokenService {
  signStaff(staff: { id: number; role: StaffRole }): string;
  signCustomer(customer: { id: number }): string;
  /** The middleware that reads `Authorization: Bearer` and sets ctx.state.principal. */
  authenticate: Middleware;
}

interface Claims {
  sub: string;
  aud: string;
  iat: number;
  /** Issue time in milliseconds, so a reset voids tokens issued the same second before it. */
  t?: number;
}

/**
 * Staff and customers are separate audiences: a customer's token never opens a staff route, nor
 * the other way round (docs/accounts.md). A token names its algorithm and expires.
 */
export function createTokenService(secret: string, principals: PrincipalsRepository): TokenService {
  const key = hmacKey(secret);
  const sign = (sub: number, audience: string, expiresIn: string) =>
    jwt.sign({ t: Date.now() }, key, { algorithm: ALGORITHM, subject: String(sub), audience, expiresIn: expiresIn as jwt.SignOptions['expiresIn'] });

  const authenticate: Middleware = async (ctx: AppContext, next) => {
    ctx.state.principal = { kind: 'anonymous' };
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match?.[1] && match[1] !== 'null' && match[1] !== 'undefined') {
      await resolvePrincipal(ctx, match[1]);
    }
    await next();
  };

  async function resolvePrincipal(ctx: AppContext, token: string): Promise<void> {
    let claims: Claims;
    try {
      claims = jwt.verify(token, key, {
        algorithms: [ALGORITHM],
        audience: [STAFF_AUDIENCE, CUSTOMER_AUDIENCE],
      }) as Claims;
    } catch (err) {
      ctx.state.authError = err instanceof jwt.TokenExpiredError ? 'expired' : 'invalid';
      return;
    }
    // Only we sign tokens, but a leaked secret or an old format must still never reach a query as
    // NaN or a string: the subject is a positive id and the audience exactly one of ours.
    const id = subjectId(claims.sub);
    if (id === null || typeof claims.aud !== 'string') {
      ctx.state.authError = 'invalid';
      return;
    }
    const issuedMs = typeof claims.t === 'number' ? claims.t : claims.iat * 1000;
    if (claims.aud === STAFF_AUDIENCE) {
      const row = await principals.staffById(id);
      if (!row || issuedMs < row.tokensValidAfter) {
        ctx.state.authError = 'expired';
        return;
      }
      ctx.state.principal = { kind: 'staff', id: row.id, role: row.role, email: row.email };
    } else {
      const row = await principals.customerById(id);
      if (!row || issuedMs < row.tokensValidAfter) {
        ctx.state.authError = 'expired';
        return;
      }
      ctx.state.principal = { kind: 'customer', id: row.id, email: row.email };
    }
  }

  return {
    signStaff: (staff) => sign(staff.id, STAFF_AUDIENCE, STAFF_TTL),
    signCustomer: (customer) => sign(customer.id, CUSTOMER_AUDIENCE, CUSTOMER_TTL),
    authenticate,
  };
}

/** The id a token's subject names, or null unless it is a positive whole number a row id can be. */
function subjectId(sub: unknown): number | null {
  if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub)) return null;
  const id = Number(sub);
  return id <= 2_147_483_647 ? id : null;
}

function unauthenticated(ctx: AppContext) {
  return ctx.state.authError ? unauthorized(MSG.sessionExpired, 'TOKEN_INVALID') : unauthorized(MSG.authRequired);
}

/** 401 without (valid) credentials, 403 for a customer token. */
export const requireStaff: Middleware = async (ctx, next) => {
  const principal = ctx.state.principal;
  if (principal.kind === 'customer') throw forbidden(MSG.staffOnly);
  if (principal.kind !== 'staff') throw unauthenticated(ctx);
  await next();
};

export const requireAdmin: Middleware = async (ctx, next) => {
  const principal = ctx.state.principal;
  if (principal.kind === 'customer') throw forbidden(MSG.staffOnly);
  if (principal.kind !== 'staff') throw unauthenticated(ctx);
  if (principal.role !== 'admin') throw adminOnly();
  await next();
};

/** 403 `ADMIN_ONLY` (docs/accounts.md, "What a photographer may not do"), also for services' role checks. */
export const adminOnly = (message: string = MSG.adminOnly) => forbidden(message, 'ADMIN_ONLY');

/** The signed-in staff member as the audit log names them (behind requireStaff or requireAdmin). */
export function staffActor(ctx: AppContext): { id: number; email: string; role: StaffRole } {
  const principal = ctx.state.principal;
  if (principal.kind !== 'staff') throw forbidden(MSG.staffOnly);
  return { id: principal.id, email: principal.email, role: principal.role };
}

export const requireCustomer: Middleware = async (ctx, next) => {
  const principal = ctx.state.principal;
  if (principal.kind === 'staff') throw forbidden(MSG.customerOnly);
  if (principal.kind !== 'customer') throw unauthenticated(ctx);
  await next();
};

export function isStaff(ctx: AppContext): boolean {
  return ctx.state.principal.kind === 'staff';
}
