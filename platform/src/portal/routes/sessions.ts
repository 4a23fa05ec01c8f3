import type { FastifyInstance } from 'fastify';
import type { PortalDeps } from '../deps.js';
import { currentSession, LOGIN_PATH, redirect, sendPage } from '../http.js';
import { sessionsPage } from '../pages/sessions.js';

/** `/developers/sessions`: who holds a gateway session now. */
export function registerSessionRoutes(app: FastifyInstance, deps: PortalDeps): void {
  const { store } = deps.ctx;
  app.get('/developers/sessions', async (request, reply) => {
    const session = currentSession(deps, request);
    if (!session) return redirect(reply, LOGIN_PATH);
    const sessions = deps.live.list().map((live) => ({
      ...live,
      username: store.users.get(live.userId)?.username ?? null,
      applicationName: store.applications.get(live.applicationId)?.name ?? null,
    }));
    return sendPage(
      reply,
      200,
      sessionsPage({
        csrfToken: session.csrfToken,
        flash: deps.sessions.takeFlash(session),
        stats: deps.gateway.stats(),
        sessions,
      }),
    );
  });
}
