import { callerOf, type ApiScope, pathParams } from '../http/api.js';
import type { PlatformKernel } from '../kernel.js';
import type { LobbyServices } from './services.js';
import { Errors } from '../http/errors.js';
import { assertOutboundUrl } from '../outbound/url-check.js';
import type { LobbyRecord } from '../store/lobby-types.js';
import { findLobby, lobbyConfig } from './access.js';
import type { LobbySchemas } from './schemas.js';
import { memberChange, type Lobbies, type MemberBody, type PendingEvents } from './service.js';
import { isSnowflake } from '../ids/snowflake.js';

/** Every listed user must exist (→ 404 10013 before anything changes). */
function assertUsersExist(ctx: PlatformKernel, ids: string[]): void {
  for (const id of ids) if (!ctx.store.users.get(id)) throw Errors.unknownUser();
}

/** The lobby routes (platform/PROTOCOL.md §10.5): create (bot), create-or-join by secret, get, patch, delete. */
export function registerLobbyRoutes(app: ApiScope, ctx: LobbyServices, lobbies: Lobbies, schemas: LobbySchemas): void {
  const limits = () => ctx.limits;

  // Bot-managed lobby: members only through the server API (they cannot leave by themselves).
  app.post(
    '/lobbies',
    { config: lobbyConfig('bot', 'lobbies.write'), schema: { body: schemas.create } },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body;
      const members = body.members ?? [];
      assertUsersExist(
        ctx,
        members.map((m) => m.id),
      );
      await assertOutboundUrl(ctx.guard, ['override_event_webhooks_url'], body.override_event_webhooks_url);
      const lobby = lobbies.run((pending) => {
        const created = lobbies.create({
          applicationId: caller.app.id,
          secret: null,
          metadata: body.metadata ?? {},
          flags: body.flags ?? 0,
          idleTimeoutSeconds: body.idle_timeout_seconds ?? limits().idleTimeoutDefaultSeconds,
          overrideWebhookUrl: body.override_event_webhooks_url ?? null,
        });
        for (const member of members) {
          lobbies.upsertMember(created, member.id, memberChange(member), pending);
        }
        return ctx.store.lobbies.get(created.id)!;
      });
      return reply.code(201).send(lobbies.json(lobby, { bot: true }));
    },
  );

  // Create or join by secret. A user joins (and may leave again); the bot only creates or finds the lobby.
  // lobby_metadata / member_metadata overwrite when present; idle_timeout_seconds and flags apply on creation.
  app.put(
    '/lobbies',
    { config: lobbyConfig('both', 'lobbies.write'), schema: { body: schemas.createOrJoin } },
    async (request) => {
      const caller = callerOf(request);
      const body = request.body;
      const lobby = lobbies.run((pending) => {
        let lobby = joinableLobby(ctx, caller.app.id, body.secret);
        // A refused join (30050, 30051) throws inside the transaction: a lobby created for it is rolled back too.
        if (!lobby) {
          lobby = lobbies.create({
            applicationId: caller.app.id,
            secret: body.secret,
            metadata: body.lobby_metadata ?? {},
            flags: body.flags ?? 0,
            idleTimeoutSeconds: body.idle_timeout_seconds ?? limits().idleTimeoutDefaultSeconds,
            overrideWebhookUrl: null,
          });
        } else if (body.lobby_metadata !== undefined) {
          lobby = lobbies.update(lobby, { ...lobby, metadata: body.lobby_metadata ?? {} }, pending);
        }
        if (caller.kind === 'bearer') {
          lobbies.upsertMember(
            lobby,
            caller.user.id,
            { joinedBySecret: true, ...(body.member_metadata !== undefined && { metadata: body.member_metadata }) },
            pending,
          );
        }
        return ctx.store.lobbies.get(lobby.id)!;
      });
      return lobbies.json(lobby, { bot: caller.kind === 'bot' });
    },
  );

  app.get(
    '/lobbies/:lobbyId',
    { config: lobbyConfig('bot'), schema: { params: pathParams('lobbyId') } },
    async (request) => {
      const caller = callerOf(request);
      return lobbies.json(findLobby(ctx, caller, request.params.lobbyId), { bot: true });
    },
  );

  // `members` replaces the member set: unlisted members are removed, listed ones added or updated.
  app.patch(
    '/lobbies/:lobbyId',
    { config: lobbyConfig('bot', 'lobbies.write'), schema: { params: pathParams('lobbyId'), body: schemas.patch } },
    async (request) => {
      const caller = callerOf(request);
      const found = findLobby(ctx, caller, request.params.lobbyId);
      const body = request.body;
      if (body.members)
        assertUsersExist(
          ctx,
          body.members.map((m) => m.id),
        );
      await assertOutboundUrl(ctx.guard, ['override_event_webhooks_url'], body.override_event_webhooks_url);
      const lobby = lobbies.run((pending) => {
        let lobby = lobbies.update(
          found,
          {
            ...found,
            ...(body.metadata !== undefined && { metadata: body.metadata ?? {} }),
            ...(body.flags !== undefined && { flags: body.flags }),
            ...(body.idle_timeout_seconds !== undefined && { idleTimeoutSeconds: body.idle_timeout_seconds }),
            ...(body.override_event_webhooks_url !== undefined && {
              overrideWebhookUrl: body.override_event_webhooks_url,
            }),
          },
          pending,
        );
        if (body.members) replaceMembers(lobbies, lobby, body.members, pending);
        lobby = ctx.store.lobbies.get(lobby.id)!;
        return lobby;
      });
      return lobbies.json(lobby, { bot: true });
    },
  );

  // Idempotent: an unknown lobby (or another application's) is already gone.
  app.delete(
    '/lobbies/:lobbyId',
    { config: lobbyConfig('bot', 'lobbies.write'), schema: { params: pathParams('lobbyId') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const id = request.params.lobbyId;
      const lobby = isSnowflake(id) ? ctx.store.lobbies.get(id) : undefined;
      if (lobby && lobby.applicationId === caller.app.id) lobbies.run((pending) => lobbies.delete(lobby, pending));
      return reply.code(204).send();
    },
  );
}

/** The lobby the secret joins, if it is still joinable; an expired secret is released (the lobby survives). */
function joinableLobby(ctx: PlatformKernel, applicationId: string, secret: string): LobbyRecord | undefined {
  const lobby = ctx.store.lobbies.findBySecret(applicationId, secret);
  if (!lobby) return undefined;
  if (lobby.secretExpiresAt !== null && lobby.secretExpiresAt <= ctx.now()) {
    ctx.store.lobbies.update({ ...lobby, secret: null, secretExpiresAt: null });
    return undefined;
  }
  return lobby;
}

function replaceMembers(
  lobbies: Lobbies,
  lobby: LobbyRecord,
  members: Array<MemberBody & { id: string }>,
  pending: PendingEvents,
): void {
  const keep = new Set(members.map((m) => m.id));
  for (const id of lobbies.memberIds(lobby)) if (!keep.has(id)) lobbies.removeMember(lobby, id, pending);
  for (const member of members) lobbies.upsertMember(lobby, member.id, memberChange(member), pending);
}
