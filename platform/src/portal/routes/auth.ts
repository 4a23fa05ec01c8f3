import type { FastifyInstance } from 'fastify';
import { randomToken } from '../../crypto/tokens.js';
import { credentialsMatch } from '../account.js';
import { clearCookie, LOGIN_COOKIE, readCookie, SESSION_COOKIE, setCookie } from '../cookies.js';
import type { PortalDeps } from '../deps.js';
import { loginForm, parseForm } from '../forms.js';
import { csrfMatches, currentSession, formFields, LOGIN_PATH, redirect, sendPage } from '../http.js';
import { forgedRequestPage, loginPage } from '../pages/login.js';
import { SESSION_SECONDS } from '../sessions.js';
import { PORTAL_CSS } from '../style.js';

const HOME = '/developers/applications';
/** The login form's token lives as long as a form may reasonably stay open. */
const LOGIN_TOKEN_SECONDS = 3600;

/** `/developers`, the stylesheet, sign-in and sign-out. */
export function registerAuthRoutes(app: FastifyInstance, deps: PortalDeps): void {
  // Served over TLS here, or behind a TLS front (an https publicUrl): the browser must never send the cookies in clear.
  const secure = deps.ctx.options.tls || deps.ctx.options.publicUrl?.startsWith('https:') === true;

  app.get('/developers', async (request, reply) => redirect(reply, currentSession(deps, request) ? HOME : LOGIN_PATH));

  app.get('/developers/portal.css', async (_request, reply) =>
    reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(PORTAL_CSS),
  );

  app.get(LOGIN_PATH, async (request, reply) => {
    if (currentSession(deps, request)) return redirect(reply, HOME);
    // Login forgery (a foreign page signing the browser in to an account of its choosing) is refused with a
    // double-submit token: the form's field must equal this cookie, which no other site can read or set.
    const token = randomToken(24);
    setCookie(reply, LOGIN_COOKIE, token, { secure, maxAgeSeconds: LOGIN_TOKEN_SECONDS, path: LOGIN_PATH });
    return sendPage(reply, 200, loginPage({ account: deps.account, loginToken: token }));
  });

  app.post(LOGIN_PATH, async (request, reply) => {
    const fields = formFields(request);
    const expected = readCookie(request, LOGIN_COOKIE);
    if (!expected || !csrfMatches(expected, fields)) return sendPage(reply, 403, forgedRequestPage());
    const address = request.ip;
    if (deps.throttle.blocked(address)) {
      return sendPage(
        reply,
        429,
        loginPage({
          account: deps.account,
          loginToken: expected,
          error: 'Too many failed sign-ins. Wait a minute and try again.',
        }),
      );
    }
    const parsed = parseForm(loginForm, fields);
    if (!parsed.ok)
      return sendPage(
        reply,
        400,
        loginPage({ account: deps.account, loginToken: expected, error: 'Enter your username and password.' }),
      );
    if (!credentialsMatch(deps.account, parsed.value.username, parsed.value.password)) {
      deps.throttle.failed(address);
      // Which of the two was wrong is not said.
      return sendPage(
        reply,
        401,
        loginPage({ account: deps.account, loginToken: expected, error: 'Wrong username or password.' }),
      );
    }
    setCookie(reply, SESSION_COOKIE, deps.sessions.create(parsed.value.username), {
      secure,
      maxAgeSeconds: SESSION_SECONDS,
    });
    clearCookie(reply, LOGIN_COOKIE, { secure, path: LOGIN_PATH });
    deps.ctx.logger.info({ area: 'portal', username: parsed.value.username }, 'developer signed in');
    return redirect(reply, HOME);
  });

  app.post('/developers/logout', async (request, reply) => {
    const fields = formFields(request);
    const cookie = readCookie(request, SESSION_COOKIE);
    const session = deps.sessions.get(cookie);
    if (!session) return redirect(reply, LOGIN_PATH);
    if (!csrfMatches(session.csrfToken, fields)) return sendPage(reply, 403, forgedRequestPage());
    deps.sessions.end(cookie);
    clearCookie(reply, SESSION_COOKIE, { secure });
    return redirect(reply, LOGIN_PATH);
  });
}
