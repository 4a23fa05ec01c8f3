import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthServices } from '../services.js';
import { login } from '../../accounts/login.js';
import { htmlFormBody } from '../../http/body.js';
import { invalidFormBody, type ErrorTree } from '../../http/errors.js';
import { approveAuthorization, errorRedirect } from './approve.js';
import { authorizeErrorPage, consentPage } from './page.js';
import { validateAuthorizeRequest, type AuthorizeRequest } from './request.js';

function wantsJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('application/json');
}

function flatten(tree: ErrorTree, prefix = ''): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_errors' && Array.isArray(value))
      lines.push(...value.map((e) => `${prefix || 'request'}: ${e.message}`));
    else if (value && !Array.isArray(value)) lines.push(...flatten(value, prefix ? `${prefix}.${key}` : key));
  }
  return lines;
}

function single(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * GET shows the consent page (or, in development mode with `svcpp_dev_user`, approves at once as that user);
 * POST receives the consent form. Requests with a bad client or redirect URI are answered here (HTML, or the
 * 50035 JSON body when the client asks for JSON); all later errors go back to the redirect URI.
 */
export function registerAuthorizeRoutes(app: FastifyInstance, ctx: OAuthServices): void {
  const handle = (
    request: FastifyRequest,
    reply: FastifyReply,
    input: Record<string, unknown>,
    consent?: { username: string; password?: string; decision: string },
  ) => {
    const validation = validateAuthorizeRequest(ctx, input);
    if (!validation.ok && !validation.redirect) {
      if (wantsJson(request)) return reply.code(400).send(invalidFormBody(validation.errors).body());
      return reply
        .code(400)
        .type('text/html')
        .send(authorizeErrorPage(validation.message, flatten(validation.errors)));
    }
    if (!validation.ok) {
      return reply.redirect(
        errorRedirect(validation.request.redirectUri, validation.error, validation.request.params.state),
        302,
      );
    }
    const authorize: AuthorizeRequest = validation.request;
    const state = authorize.params.state;
    const deny = (error: string, description: string) =>
      reply.redirect(errorRedirect(authorize.redirectUri, { error, description }, state), 302);

    const devUser = ctx.options.devMode ? authorize.params.svcpp_dev_user : undefined;
    if (devUser !== undefined) {
      const result = login(ctx, devUser, undefined, true);
      if (!result.ok)
        return result.reason === 'banned'
          ? deny('access_denied', 'The account is banned.')
          : deny('access_denied', 'Unknown development user.');
      return reply.redirect(approveAuthorization(ctx, authorize, result.user), 302);
    }
    if (!consent) {
      // No sign-in session exists on this platform, so prompt=none can never succeed without the dev shortcut.
      if (authorize.params.prompt === 'none') return deny('login_required', 'The user must sign in.');
      return reply.type('text/html').send(consentPage(authorize));
    }
    if (consent.decision !== 'authorize') return deny('access_denied', 'The user denied the request.');
    const result = login(ctx, consent.username, consent.password);
    if (!result.ok && result.reason === 'banned') return deny('access_denied', 'The account is banned.');
    if (!result.ok)
      return reply.code(401).type('text/html').send(consentPage(authorize, 'Unknown username or wrong password.'));
    return reply.redirect(approveAuthorization(ctx, authorize, result.user), 302);
  };

  app.get('/oauth2/authorize', { config: { rateLimit: 'oauth2.authorize' } }, (request, reply) =>
    handle(request, reply, request.query as Record<string, unknown>),
  );

  app.post('/oauth2/authorize', { config: { rateLimit: 'oauth2.authorize' } }, (request, reply) => {
    const form = htmlFormBody(request);
    const { username, password, decision, ...params } = Object.fromEntries(
      Object.entries(form).map(([k, v]) => [k, single(v)]),
    );
    return handle(request, reply, params, {
      username: typeof username === 'string' ? username : '',
      ...(typeof password === 'string' && password !== '' ? { password } : {}),
      decision: typeof decision === 'string' ? decision : 'cancel',
    });
  });
}
