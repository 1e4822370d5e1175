import Router from '@koa/router';
import { GUARDIAN_MSG, MSG } from '../../contract/messages';
import { GUARDIAN_CONSENT_MSG, guardianConfirmByTokenSchema } from '../../contract/guardian-consent';
import { GUARDIAN_PHONE_MSG, guardianConfirmByCodeSchema, guardianConfirmSchemaFor } from '../../contract/guardian-phone';
import { guardianSubscribeSchema } from '../../contract/outreach';
import type { AppContext, AppState } from '../http/context';
import { clientIp } from '../http/context';
import { requireAdmin, requireStaff, staffActor } from '../http/auth';
import { badRequest } from '../http/errors';
import { ownPagesOnly, sameOriginOnly } from '../http/same-origin';
import { parse } from '../http/validate';
import { guardianOf, setGuardianCookie } from '../outreach/guardian-cookie';
import { pathId } from '../photos/path-id';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { presentStaffGuardian } from './guardians.presenter';

/** Tokens are 43 (confirm) or at most a few hundred (unsubscribe) characters. */
const TOKEN_MAX = 600;

/** The link's token: from the query (the e-mailed links), or a form or JSON body's `token` (the PWA may post it). */
function tokenOf(ctx: AppContext): string {
  const body = ctx.request.body as { token?: unknown } | undefined;
  const raw = typeof ctx.query.token === 'string' ? ctx.query.token : typeof body?.token === 'string' ? body.token : '';
  const token = raw.trim();
  if (!token || token.length > TOKEN_MAX) throw badRequest(GUARDIAN_MSG.tokenRequired, { token: GUARDIAN_MSG.tokenRequired }, 'TOKEN_REQUIRED');
  return token;
}

export function createGuardianRoutes(deps: Deps, services: Services) {
  const service = services.guardians;
  const secret = deps.config.jwtSecret;
  const router = new Router<AppState, AppContext>();
  const sameOrigin = sameOriginOnly(deps.config.publicUrl);

  /**
   * Follows what this browser has unlocked (docs/outreach.md, "Consent"); always the same 202, and
   * no cookie: a browser gets a guardian's cookie only from a link sent to the address.
   */
  router.post('/guardians/subscribe', sameOrigin, async (ctx) => {
    const input = parse(guardianSubscribeSchema, ctx.request.body);
    const viewer = await deps.access.viewer(ctx);
    ctx.body = await service.subscribe(input, viewer.grant, clientIp(ctx));
    ctx.status = 202;
  });

  /**
   * The link of a confirmation e-mail sent before the link went straight to the PWA's page: it
   * changes nothing and sends the browser on to that page, whose button confirms.
   */
  router.get('/guardians/confirm', async (ctx) => {
    ctx.status = 303;
    ctx.redirect(`/confirm-email?token=${encodeURIComponent(tokenOf(ctx))}`);
  });

  /**
   * A person's press of the page's button, `{ token }` (docs/outreach.md, "Double opt-in"), or the
   * code an SMS brought, `{ phone, code }` ("Double opt-in: by phone"): only from the shop's own pages.
   */
  const fromPage = ownPagesOnly(deps.config.publicUrl, GUARDIAN_CONSENT_MSG.confirmFromPage);
  const codeFromPage = ownPagesOnly(deps.config.publicUrl, GUARDIAN_PHONE_MSG.confirmFromPage);
  router.post('/guardians/confirm', (ctx, next) => (guardianConfirmSchemaFor(ctx.request.body) === guardianConfirmByTokenSchema ? fromPage : codeFromPage)(ctx, next), async (ctx) => {
    const body: unknown = ctx.request.body;
    const { guardianId, answer } =
      guardianConfirmSchemaFor(body) === guardianConfirmByTokenSchema
        ? await service.confirm(parse(guardianConfirmByTokenSchema, body).token)
        : await (async () => {
            const { phone, code } = parse(guardianConfirmByCodeSchema, body);
            // The code's request must be one this browser can make its own: it holds what that request asked for.
            const viewer = await deps.access.viewer(ctx);
            return service.confirmCode(phone, code, viewer.grant);
          })();
    setGuardianCookie(ctx, secret, guardianId);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  /** What the link names; changes nothing (a mail scanner or link preview may open it). */
  router.get('/guardians/unsubscribe', async (ctx) => {
    ctx.body = await service.unsubscribeInfo(tokenOf(ctx));
  });

  /**
   * One click (RFC 8058; docs/outreach.md, "Unsubscribe in one click"): mail providers POST
   * `List-Unsubscribe=One-Click` as a form from their own servers, with no cookie and no Origin, so
   * this route has no same-origin check: the signed token alone decides.
   */
  router.post('/guardians/unsubscribe', async (ctx) => {
    ctx.body = await service.unsubscribe(tokenOf(ctx));
  });

  /** What this browser's guardian cookie says (docs/outreach.md, "The guardian cookie"). */
  router.get('/guardians/me', async (ctx) => {
    ctx.body = await service.me(guardianOf(ctx, secret));
  });

  router.get('/schools/:id/guardians', requireStaff, async (ctx) => {
    const schoolId = pathId(ctx.params.id, MSG.schoolNotFound);
    ctx.body = { guardians: (await service.listForSchool(schoolId)).map(presentStaffGuardian) };
  });

  /** Admins erase a guardian (docs/outreach.md, "Erasure"; docs/accounts.md, "What a photographer may not do"). */
  router.delete('/guardians/:id', requireAdmin, async (ctx) => {
    await service.erase(pathId(ctx.params.id, GUARDIAN_MSG.guardianNotFound), staffActor(ctx));
    ctx.body = { message: GUARDIAN_MSG.erased };
  });

  return router;
}
