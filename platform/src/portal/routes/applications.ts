import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ApplicationRecord } from '../../store/types.js';
import {
  addIdentityProvider,
  addRedirectUri,
  createApplication,
  findApplication,
  removeIdentityProvider,
  removeRedirectUri,
  resetBotToken,
  rotateClientSecret,
  setParent,
  setPublicClient,
  setWebhookUrl,
} from '../application-settings.js';
import type { PortalDeps } from '../deps.js';
import {
  createApplicationForm,
  emptyForm,
  FormProblem,
  identityProviderForm,
  parentForm,
  parseForm,
  publicClientForm,
  redirectUriForm,
  removeIdentityProviderForm,
  removeRedirectUriForm,
  webhookUrlForm,
  privilegedIntentsForm,
  skuForm,
  testEntitlementForm,
  deleteEntitlementForm,
  type FieldErrors,
} from '../forms.js';
import { setPrivilegedIntents } from '../intent-settings.js';
import { createSku, deleteTestEntitlement, grantTestEntitlement } from '../premium-settings.js';
import { csrfMatches, currentSession, formFields, LOGIN_PATH, redirect, sendPage } from '../http.js';
import { APPLICATION_SECTIONS, sectionPath, type SectionSlug } from '../pages/application-chrome.js';
import { applicationsPage } from '../pages/applications.js';
import { forgedRequestPage, notFoundPage } from '../pages/login.js';
import type { Flash, PortalSession } from '../sessions.js';
import { sendTestEvent } from '../webhook-test.js';
import { renderSection } from './section-renderer.js';

const LIST_PATH = '/developers/applications';
type Params = { Params: { id: string } };

/**
 * Signed in, and the form is the session's own: the handler runs. Otherwise a redirect to the login page (no
 * session) or 403 (a forged or stale form); either way nothing changes. The session is checked after the body was
 * read and parsed, so bad bodies get the platform's usual answers first.
 */
async function signedForm(
  deps: PortalDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  handle: (session: PortalSession, fields: Record<string, string | string[]>) => Promise<FastifyReply> | FastifyReply,
): Promise<FastifyReply> {
  const session = currentSession(deps, request);
  if (!session) return redirect(reply, LOGIN_PATH);
  const fields = formFields(request);
  if (!csrfMatches(session.csrfToken, fields)) return sendPage(reply, 403, forgedRequestPage());
  return handle(session, fields);
}

export function registerApplicationRoutes(app: FastifyInstance, deps: PortalDeps): void {
  const { ctx } = deps;

  const listPage = (session: PortalSession, errors?: FieldErrors) =>
    applicationsPage({
      applications: ctx.store.applications.list(),
      csrfToken: session.csrfToken,
      flash: deps.sessions.takeFlash(session),
      errors,
    });

  app.get(LIST_PATH, async (request, reply) => {
    const session = currentSession(deps, request);
    if (!session) return redirect(reply, LOGIN_PATH);
    return sendPage(reply, 200, listPage(session));
  });

  app.post(LIST_PATH, async (request, reply) =>
    signedForm(deps, request, reply, (session, fields) => {
      const parsed = parseForm(createApplicationForm, fields);
      if (!parsed.ok) return sendPage(reply, 400, listPage(session, parsed.errors));
      let created: ApplicationRecord;
      try {
        created = createApplication(ctx, parsed.value);
      } catch (error) {
        if (error instanceof FormProblem) return sendPage(reply, 400, listPage(session, error.errors));
        throw error;
      }
      session.flash = {
        kind: 'ok',
        message: `Application ${created.name} created.`,
        secrets: [
          { label: 'Client secret', value: created.clientSecret },
          { label: 'Bot token', value: created.botToken },
        ],
      };
      return redirect(reply, sectionPath(created.id, ''));
    }),
  );

  // One GET route per section of an application.
  for (const { slug } of APPLICATION_SECTIONS) {
    app.get<Params>(`${LIST_PATH}/:id${slug ? `/${slug}` : ''}`, async (request, reply) => {
      const session = currentSession(deps, request);
      if (!session) return redirect(reply, LOGIN_PATH);
      const application = findApplication(ctx, request.params.id);
      if (!application) return sendPage(reply, 404, notFoundPage(session.csrfToken));
      return sendPage(
        reply,
        200,
        renderSection(deps, slug, {
          app: application,
          csrfToken: session.csrfToken,
          flash: deps.sessions.takeFlash(session),
        }),
      );
    });
  }

  /**
   * A form of one application's page: validated with `schema`, applied by `apply`; on a problem the page is shown
   * again with the errors at the form's fields (400) and nothing changed, on success the browser goes back to the
   * page with the notice `apply` returned.
   */
  function applicationForm<S extends z.ZodType>(
    suffix: string,
    slug: SectionSlug,
    form: string,
    schema: S,
    apply: (application: ApplicationRecord, value: z.output<S>) => Flash | Promise<Flash>,
  ): void {
    app.post<Params>(`${sectionPath(':id', slug)}${suffix}`, async (request, reply) =>
      signedForm(deps, request, reply, async (session, fields) => {
        const application = findApplication(ctx, request.params.id);
        if (!application) return sendPage(reply, 404, notFoundPage(session.csrfToken));
        const failed = (errors: FieldErrors) =>
          sendPage(
            reply,
            400,
            renderSection(deps, slug, { app: application, csrfToken: session.csrfToken, failed: { form, errors } }),
          );
        const parsed = parseForm(schema, fields);
        if (!parsed.ok) return failed(parsed.errors);
        try {
          session.flash = await apply(application, parsed.value);
        } catch (error) {
          if (error instanceof FormProblem) return failed(error.errors);
          throw error;
        }
        return redirect(reply, sectionPath(application.id, slug));
      }),
    );
  }

  applicationForm('/parent', '', 'parent', parentForm, (application, value) => {
    const saved = setParent(ctx, application, value.parent_id);
    return { kind: 'ok', message: saved.parentId ? 'Parent application saved.' : 'The application has no parent now.' };
  });

  applicationForm('/client-secret', 'oauth2', 'secret', emptyForm, (application) => ({
    kind: 'ok',
    message: 'Client secret reset.',
    secrets: [{ label: 'Client secret', value: rotateClientSecret(ctx, application) }],
  }));

  applicationForm('/public-client', 'oauth2', 'public', publicClientForm, (application, value) => {
    const saved = setPublicClient(ctx, application, value.public_client === 'on');
    return {
      kind: 'ok',
      message: saved.publicClient ? 'The application is a public client.' : 'The application is a confidential client.',
    };
  });

  applicationForm('/redirect-uris', 'oauth2', 'redirect', redirectUriForm, (application, value) => {
    addRedirectUri(ctx, application, value.redirect_uri);
    return { kind: 'ok', message: 'Redirect URI added.' };
  });

  applicationForm('/redirect-uris/remove', 'oauth2', 'redirect', removeRedirectUriForm, (application, value) => {
    removeRedirectUri(ctx, application, value.redirect_uri);
    return { kind: 'ok', message: 'Redirect URI removed.' };
  });

  applicationForm('', 'identity-providers', 'provider', identityProviderForm, (application, value) => {
    addIdentityProvider(ctx, application, { type: value.type, issuer: value.issuer, clientId: value.client_id });
    return { kind: 'ok', message: 'Identity provider added.' };
  });

  applicationForm('/remove', 'identity-providers', 'provider', removeIdentityProviderForm, (application, value) => {
    removeIdentityProvider(ctx, application, value.type, value.issuer);
    return { kind: 'ok', message: 'Identity provider removed.' };
  });

  applicationForm('/url', 'webhooks', 'webhook', webhookUrlForm, async (application, value) => {
    // A destination the platform would never send to (itself, a private address not allowed) is refused here.
    const refused = value.webhook_url === '' ? undefined : await deps.outbound.guard.problem(value.webhook_url);
    if (refused) throw new FormProblem({ webhook_url: refused });
    const saved = setWebhookUrl(ctx, application, value.webhook_url);
    return {
      kind: 'ok',
      message: saved.webhookUrl ? 'Webhook URL saved.' : 'Webhook URL cleared: no events are sent.',
    };
  });

  applicationForm('/test', 'webhooks', 'webhook-test', emptyForm, async (application) => {
    const result = await sendTestEvent(deps.outbound, application, {
      timeoutMs: ctx.options.webhookRetry.timeoutMs,
      nowMs: ctx.now(),
    });
    return {
      kind: result.ok ? 'ok' : 'error',
      message: `Test event ${result.ok ? 'delivered' : 'not delivered'}. ${result.detail}`,
    };
  });

  applicationForm('/intents', 'bot', 'intents', privilegedIntentsForm, (application, value) => {
    setPrivilegedIntents(ctx, application, {
      presence: value.presence === 'on',
      guild_members: value.guild_members === 'on',
      message_content: value.message_content === 'on',
    });
    return { kind: 'ok', message: 'Privileged intents saved; they apply to the bot’s next gateway session.' };
  });

  applicationForm('/skus', 'monetization', 'sku', skuForm, (application, value) => {
    const created = createSku(ctx, application, {
      name: value.name,
      type: value.type,
      slug: value.slug,
      available: value.available === 'on',
      audience: value.audience,
      priceCents: value.price_cents,
    });
    return {
      kind: 'ok',
      message:
        created.length === 2 ? `SKU ${value.name} created with its subscription group.` : `SKU ${value.name} created.`,
    };
  });

  applicationForm('/test-entitlements', 'monetization', 'grant', testEntitlementForm, (application, value) => {
    const granted = grantTestEntitlement(ctx, application, {
      skuId: value.sku_id,
      ownerType: value.owner_type,
      owner: value.owner,
    });
    return { kind: 'ok', message: `Test entitlement ${granted.id} granted.` };
  });

  applicationForm('/test-entitlements/delete', 'monetization', 'grant', deleteEntitlementForm, (application, value) => {
    deleteTestEntitlement(ctx, application, value.entitlement_id);
    return { kind: 'ok', message: 'Test entitlement deleted.' };
  });

  applicationForm('/token', 'bot', 'token', emptyForm, (application) => ({
    kind: 'ok',
    message: 'Bot token reset; the bot was disconnected from the gateway.',
    secrets: [{ label: 'Bot token', value: resetBotToken(ctx, application) }],
  }));
}
