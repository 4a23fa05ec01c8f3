import type { PortalDeps } from '../deps.js';
import type { SectionSlug, SectionView } from '../pages/application-chrome.js';
import { botPage } from '../pages/app-bot.js';
import { generalPage } from '../pages/app-general.js';
import { identityProvidersPage } from '../pages/app-identity.js';
import { lobbiesPage } from '../pages/app-lobbies.js';
import { monetizationPage } from '../pages/app-monetization.js';
import { oauth2Page } from '../pages/app-oauth2.js';
import { webhooksPage } from '../pages/app-webhooks.js';
import { PremiumService } from '../../premium/service.js';
import { testEntitlements } from '../premium-settings.js';

/** How many lobbies and webhook events a page lists (newest first). */
export const LOBBY_LISTING_LIMIT = 50;
export const RECENT_EVENTS = 10;
export const TEST_ENTITLEMENT_LISTING_LIMIT = 50;

const username = (deps: PortalDeps, id: string | null) =>
  id === null ? null : (deps.ctx.store.users.get(id)?.username ?? null);

/** Gathers what one application page shows and renders it (GET, and a failed form re-shown with its errors). */
export function renderSection(deps: PortalDeps, slug: SectionSlug, view: SectionView): string {
  const { store } = deps.ctx;
  const { app } = view;
  switch (slug) {
    case '':
      return generalPage({
        ...view,
        applications: store.applications.list(),
        ownerName: username(deps, app.ownerUserId),
      });
    case 'oauth2':
      return oauth2Page(view);
    case 'identity-providers':
      return identityProvidersPage(view);
    case 'webhooks': {
      const recent = store.outbox
        .list()
        .filter((entry) => entry.applicationId === app.id)
        .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
        .slice(0, RECENT_EVENTS);
      return webhooksPage({ ...view, recent });
    }
    case 'bot':
      return botPage({
        ...view,
        botUsername: username(deps, app.botUserId),
        users: store.grants.countForApplication(app.id),
        botSession: deps.live.list(app.id).find((session) => session.userId === app.botUserId),
      });
    case 'monetization':
      return monetizationPage({
        ...view,
        skus: new PremiumService(deps.ctx).skus(app.id),
        testEntitlements: testEntitlements(deps.ctx, app.id, TEST_ENTITLEMENT_LISTING_LIMIT).map((entitlement) => ({
          entitlement,
          ownerName: username(deps, entitlement.userId),
        })),
        testEntitlementLimit: TEST_ENTITLEMENT_LISTING_LIMIT,
      });
    case 'lobbies': {
      const connected = new Set(deps.live.list(app.id).map((session) => session.userId));
      const lobbies = store.lobbies.listForApplication(app.id, LOBBY_LISTING_LIMIT).map((lobby) => ({
        lobby,
        members: store.lobbies.members(lobby.id).map((member) => ({
          member,
          username: username(deps, member.userId),
          connected: connected.has(member.userId),
        })),
      }));
      return lobbiesPage({ ...view, lobbies, limit: LOBBY_LISTING_LIMIT });
    }
  }
}
