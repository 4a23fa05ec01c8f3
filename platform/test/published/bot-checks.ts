/** Published-shape checks of the bot API routes (PROTOCOL.md §14), against a platform with a bot in a guild. */
import * as spec from 'discord-api-spec/zod';
import { expect } from 'vitest';
import * as zm from 'zod/mini';
import { bot, request, type TestResponse } from '../support/http.js';
import type { BotFixture } from '../bot/fixture.js';
import { accessTokenFor } from '../support/platform.js';
import { inGuildVoice } from '../support/voice-harness.js';
import { api, befriend, fullUser } from '../support/social.js';
import { published, type Check } from './checks.js';

const list = <T>(item: zm.ZodMiniType<T>) => zm.nullable(zm.array(item));
/** 👍 as a library puts it in the path. */
const THUMBS_UP = encodeURIComponent('👍');
/** A 1×1 PNG as a data URI. */
export const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk' +
  '+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export function botApiChecks(fixture: () => BotFixture): Check[] {
  const call = (
    method: string,
    path: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse> => {
    const f = fixture();
    return request(`${f.platform.apiBase}${path}`, {
      method,
      headers: { ...bot(f.botToken), ...headers },
      ...(json !== undefined && { json }),
    });
  };
  const f = () => fixture();
  const post = async (content: string) => {
    const response = await call('POST', `/channels/${f().generalId}/messages`, { content });
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };
  const newRole = async () => {
    const response = await call('POST', `/guilds/${f().guildId}/roles`, { name: 'shape role' });
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };
  const newInvite = async () => {
    const response = await call('POST', `/channels/${f().generalId}/invites`, {});
    expect(response.status, response.text).toBe(200);
    return response.body.code as string;
  };

  return [
    published('get', '/applications/@me', '200', spec.PrivateApplicationResponseSchema, () =>
      call('GET', '/applications/@me'),
    ),
    published('patch', '/applications/@me', '200', spec.PrivateApplicationResponseSchema, () =>
      call('PATCH', '/applications/@me', { event_webhooks_url: null }),
    ),
    published(
      'get',
      '/applications/{application_id}/emojis',
      '200',
      spec.ListApplicationEmojisResponseSchema,
      async () => {
        await call('POST', `/applications/${f().appId}/emojis`, { name: 'listed', image: PNG });
        return call('GET', `/applications/${f().appId}/emojis`);
      },
    ),
    published('post', '/applications/{application_id}/emojis', '201', spec.EmojiResponseSchema, () =>
      call('POST', `/applications/${f().appId}/emojis`, { name: 'created', image: PNG }),
    ),
    published('get', '/applications/{application_id}/emojis/{emoji_id}', '200', spec.EmojiResponseSchema, async () => {
      const made = await call('POST', `/applications/${f().appId}/emojis`, { name: 'fetched', image: PNG });
      return call('GET', `/applications/${f().appId}/emojis/${made.body.id}`);
    }),
    published(
      'patch',
      '/applications/{application_id}/emojis/{emoji_id}',
      '200',
      spec.EmojiResponseSchema,
      async () => {
        const made = await call('POST', `/applications/${f().appId}/emojis`, { name: 'patched', image: PNG });
        return call('PATCH', `/applications/${f().appId}/emojis/${made.body.id}`, { name: 'patched_again' });
      },
    ),
    published('delete', '/applications/{application_id}/emojis/{emoji_id}', '204', null, async () => {
      const made = await call('POST', `/applications/${f().appId}/emojis`, { name: 'deleted', image: PNG });
      return call('DELETE', `/applications/${f().appId}/emojis/${made.body.id}`);
    }),
    published('get', '/guilds/{guild_id}', '200', spec.GuildWithCountsResponseSchema, async () => [
      await call('GET', `/guilds/${f().guildId}`),
      await call('GET', `/guilds/${f().guildId}?with_counts=true`),
    ]),
    published('get', '/guilds/{guild_id}/roles', '200', zm.array(spec.GuildRoleResponseSchema), () =>
      call('GET', `/guilds/${f().guildId}/roles`),
    ),
    published('get', '/guilds/{guild_id}/roles/member-counts', '200', zm.record(zm.string(), zm.number()), () =>
      call('GET', `/guilds/${f().guildId}/roles/member-counts`),
    ),
    published('get', '/guilds/{guild_id}/roles/{role_id}', '200', spec.GuildRoleResponseSchema, () =>
      call('GET', `/guilds/${f().guildId}/roles/${f().guildId}`),
    ),
    published('post', '/guilds/{guild_id}/roles', '200', spec.GuildRoleResponseSchema, () =>
      call('POST', `/guilds/${f().guildId}/roles`, { name: 'made', color: 0x336699 }),
    ),
    published('patch', '/guilds/{guild_id}/roles/{role_id}', '200', spec.GuildRoleResponseSchema, async () =>
      call('PATCH', `/guilds/${f().guildId}/roles/${await newRole()}`, { name: 'renamed' }),
    ),
    published('delete', '/guilds/{guild_id}/roles/{role_id}', '204', null, async () =>
      call('DELETE', `/guilds/${f().guildId}/roles/${await newRole()}`),
    ),
    published('get', '/guilds/{guild_id}/members', '200', zm.array(spec.GuildMemberResponseSchema), () =>
      call('GET', `/guilds/${f().guildId}/members?limit=10`),
    ),
    published('get', '/guilds/{guild_id}/members/search', '200', zm.array(spec.GuildMemberResponseSchema), () =>
      call('GET', `/guilds/${f().guildId}/members/search?query=al&limit=5`),
    ),
    published('patch', '/guilds/{guild_id}/members/@me', '200', spec.PrivateGuildMemberResponseSchema, () =>
      call('PATCH', `/guilds/${f().guildId}/members/@me`, { bio: 'a bot' }),
    ),
    published('get', '/users/@me/guilds/{guild_id}/member', '200', spec.PrivateGuildMemberResponseSchema, async () => {
      const token = await accessTokenFor(f().platform, {
        clientId: f().platform.devApp.id,
        scope: 'guilds.members.read',
        user: 'bob',
      });
      return request(`${f().platform.apiBase}/users/@me/guilds/${f().guildId}/member`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
    }),
    published('get', '/guilds/{guild_id}/members/{user_id}', '200', spec.GuildMemberResponseSchema, () =>
      call('GET', `/guilds/${f().guildId}/members/${f().memberId}`),
    ),
    published('patch', '/guilds/{guild_id}/members/{user_id}', '200', spec.GuildMemberResponseSchema, async () =>
      call('PATCH', `/guilds/${f().guildId}/members/${f().memberId}`, { roles: [await newRole()] }),
    ),
    published('put', '/guilds/{guild_id}/members/{user_id}/roles/{role_id}', '204', null, async () =>
      call('PUT', `/guilds/${f().guildId}/members/${f().memberId}/roles/${await newRole()}`),
    ),
    published('delete', '/guilds/{guild_id}/members/{user_id}/roles/{role_id}', '204', null, async () =>
      call('DELETE', `/guilds/${f().guildId}/members/${f().memberId}/roles/${await newRole()}`),
    ),
    published('delete', '/guilds/{guild_id}/members/{user_id}', '204', null, async () => {
      const platform = f().platform;
      const extra = await request(`${platform.apiBase}/dev/users`, { json: { username: `kick_${Date.now()}` } });
      await request(`${platform.apiBase}/dev/guilds/${f().guildId}/members/${extra.body.id}`, {
        method: 'PUT',
        json: {},
      });
      // Kicking needs KICK_MEMBERS, which the bot's role lacks: the check grants it to that role in the store.
      const store = platform.store.botGuilds;
      const botRole = store.listRoles(f().guildId).find((role) => role.name === 'Bot Role')!;
      store.upsertRole({ ...botRole, permissions: String(BigInt(botRole.permissions) | (1n << 1n)) });
      return call('DELETE', `/guilds/${f().guildId}/members/${extra.body.id}`);
    }),
    published('get', '/guilds/{guild_id}/prune', '200', spec.GuildPruneResponseSchema, async () => {
      const store = f().platform.store.botGuilds;
      const botRole = store.listRoles(f().guildId).find((role) => role.name === 'Bot Role')!;
      store.upsertRole({ ...botRole, permissions: String(BigInt(botRole.permissions) | (1n << 1n) | (1n << 5n)) });
      return call('GET', `/guilds/${f().guildId}/prune?days=7`);
    }),
    published('post', '/guilds/{guild_id}/prune', '200', spec.GuildPruneResponseSchema, async () => {
      const store = f().platform.store.botGuilds;
      const botRole = store.listRoles(f().guildId).find((role) => role.name === 'Bot Role')!;
      store.upsertRole({ ...botRole, permissions: String(BigInt(botRole.permissions) | (1n << 1n) | (1n << 5n)) });
      // days 30: nobody in the fixture joined that long ago, so nothing is removed and later checks keep their members.
      return call('POST', `/guilds/${f().guildId}/prune`, { days: 30, compute_prune_count: true });
    }),
    published('get', '/guilds/{guild_id}/messages/search', '202', spec.SearchIndexNotReadyResponseSchema, () =>
      call('GET', `/guilds/${f().guildId}/messages/search?content=x`),
    ),
    published('get', '/guilds/{guild_id}/messages/search', '200', spec.GuildSearchResponseSchema, async () => {
      await post('searchable text');
      // The first search of the guild builds its index (202); later ones answer.
      await call('GET', `/guilds/${f().guildId}/messages/search`);
      return call(
        'GET',
        `/guilds/${f().guildId}/messages/search?content=searchable&author_id=${f().botUserId}&limit=5`,
      );
    }),
    published('get', '/guilds/{guild_id}/audit-logs', '200', spec.GuildAuditLogResponseSchema, () =>
      call('GET', `/guilds/${f().guildId}/audit-logs`),
    ),
    published('get', '/channels/{channel_id}', '200', spec.GuildChannelResponseSchema, () =>
      call('GET', `/channels/${f().generalId}`),
    ),
    published('patch', '/channels/{channel_id}', '200', spec.GuildChannelResponseSchema, () =>
      call('PATCH', `/channels/${f().generalId}`, { topic: 'shape topic', rate_limit_per_user: 0 }),
    ),
    ...autoModChecks(call, f),
    published('post', '/guilds/{guild_id}/channels', '201', spec.GuildChannelResponseSchema, () =>
      call('POST', `/guilds/${f().guildId}/channels`, { name: 'shape-channel' }),
    ),
    published('delete', '/channels/{channel_id}', '200', spec.GuildChannelResponseSchema, async () => {
      const created = await call('POST', `/guilds/${f().guildId}/channels`, { name: 'shape-gone', type: 2 });
      expect(created.status, created.text).toBe(201);
      return call('DELETE', `/channels/${created.body.id}`);
    }),
    published('put', '/channels/{channel_id}/permissions/{overwrite_id}', '204', null, () =>
      call('PUT', `/channels/${f().generalId}/permissions/${f().memberId}`, { type: 1, allow: '1024' }),
    ),
    published('delete', '/channels/{channel_id}/permissions/{overwrite_id}', '204', null, async () => {
      await call('PUT', `/channels/${f().generalId}/permissions/${f().memberId}`, { type: 1, deny: '0' });
      return call('DELETE', `/channels/${f().generalId}/permissions/${f().memberId}`);
    }),
    published('post', '/channels/{channel_id}/messages', '200', spec.MessageResponseSchema, () =>
      call('POST', `/channels/${f().generalId}/messages`, {
        content: 'shape',
        embeds: [{ title: 't', fields: [{ name: 'a', value: 'b' }] }],
      }),
    ),
    published('get', '/channels/{channel_id}/messages/{message_id}', '200', spec.MessageResponseSchema, async () =>
      call('GET', `/channels/${f().generalId}/messages/${await post('read me')}`),
    ),
    published('patch', '/channels/{channel_id}/messages/{message_id}', '200', spec.MessageResponseSchema, async () =>
      call('PATCH', `/channels/${f().generalId}/messages/${await post('edit me')}`, { content: 'edited' }),
    ),
    published('post', '/channels/{channel_id}/typing', '204', null, () =>
      call('POST', `/channels/${f().generalId}/typing`),
    ),
    // Reactions (PROTOCOL.md §14.4 "Reactions"); the message object carries them.
    published('put', '/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me', '204', null, async () =>
      call('PUT', `/channels/${f().generalId}/messages/${await post('react')}/reactions/${THUMBS_UP}/@me`),
    ),
    published('get', '/channels/{channel_id}/messages/{message_id}', '200', spec.MessageResponseSchema, async () => {
      const id = await post('reacted');
      await call('PUT', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/@me`);
      const message = await call('GET', `/channels/${f().generalId}/messages/${id}`);
      expect(message.body.reactions).toHaveLength(1);
      return message;
    }),
    published(
      'get',
      '/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}',
      '200',
      zm.array(spec.UserResponseSchema),
      async () => {
        const id = await post('listed reaction');
        await call('PUT', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/@me`);
        return [
          await call('GET', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}`),
          await call('GET', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}?type=1&limit=5`),
        ];
      },
    ),
    published(
      'delete',
      '/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me',
      '204',
      null,
      async () => {
        const id = await post('unreact');
        await call('PUT', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/@me`);
        return call('DELETE', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/@me`);
      },
    ),
    published(
      'delete',
      '/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/{user_id}',
      '204',
      null,
      async () => {
        const id = await post('remove a user reaction');
        await call('PUT', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/@me`);
        return call('DELETE', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/${f().botUserId}`);
      },
    ),
    published(
      'delete',
      '/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}',
      '204',
      null,
      async () => {
        const id = await post('remove an emoji');
        await call('PUT', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/@me`);
        return call('DELETE', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}`);
      },
    ),
    published('delete', '/channels/{channel_id}/messages/{message_id}/reactions', '204', null, async () => {
      const id = await post('remove all');
      await call('PUT', `/channels/${f().generalId}/messages/${id}/reactions/${THUMBS_UP}/@me`);
      return call('DELETE', `/channels/${f().generalId}/messages/${id}/reactions`);
    }),
    published('delete', '/channels/{channel_id}/messages/{message_id}', '204', null, async () =>
      call('DELETE', `/channels/${f().generalId}/messages/${await post('delete me')}`),
    ),
    published('post', '/channels/{channel_id}/messages/bulk-delete', '204', null, async () =>
      call('POST', `/channels/${f().generalId}/messages/bulk-delete`, {
        messages: [await post('one'), await post('two')],
      }),
    ),
    published('get', '/channels/{channel_id}/messages/pins', '200', spec.PinnedMessagesResponseSchema, async () => {
      await call('PUT', `/channels/${f().generalId}/messages/pins/${await post('pinned')}`);
      return call('GET', `/channels/${f().generalId}/messages/pins?limit=5`);
    }),
    published('get', '/channels/{channel_id}/pins', '200', list(spec.MessageResponseSchema), () =>
      call('GET', `/channels/${f().generalId}/pins`),
    ),
    published('put', '/channels/{channel_id}/messages/pins/{message_id}', '204', null, async () =>
      call('PUT', `/channels/${f().generalId}/messages/pins/${await post('pin new')}`),
    ),
    published('delete', '/channels/{channel_id}/messages/pins/{message_id}', '204', null, async () => {
      const id = await post('unpin new');
      await call('PUT', `/channels/${f().generalId}/messages/pins/${id}`);
      return call('DELETE', `/channels/${f().generalId}/messages/pins/${id}`);
    }),
    published('put', '/channels/{channel_id}/pins/{message_id}', '204', null, async () =>
      call('PUT', `/channels/${f().generalId}/pins/${await post('pin old')}`),
    ),
    published('delete', '/channels/{channel_id}/pins/{message_id}', '204', null, async () => {
      const id = await post('unpin old');
      await call('PUT', `/channels/${f().generalId}/pins/${id}`);
      return call('DELETE', `/channels/${f().generalId}/pins/${id}`);
    }),
    published('post', '/channels/{channel_id}/invites', '200', spec.GuildInviteResponseSchema, () =>
      call('POST', `/channels/${f().generalId}/invites`, { max_age: 600 }),
    ),
    published('get', '/channels/{channel_id}/invites', '200', list(spec.GuildInviteResponseSchema), async () => {
      await newInvite();
      return call('GET', `/channels/${f().generalId}/invites`);
    }),
    published('get', '/invites/{code}', '200', spec.GuildInviteResponseSchema, async () =>
      call('GET', `/invites/${await newInvite()}?with_counts=true`),
    ),
    published('delete', '/invites/{code}', '200', spec.GuildInviteResponseSchema, async () =>
      call('DELETE', `/invites/${await newInvite()}`),
    ),
    published('get', '/invites/{code}/target-users', '200', zm.string(), async () =>
      call('GET', `/invites/${await newInvite()}/target-users`),
    ),
    published('put', '/invites/{code}/target-users', '204', null, async () => {
      const code = await newInvite();
      const boundary = 'shapeboundary';
      const body =
        `--${boundary}\r\nContent-Disposition: form-data; name="target_users_file"; filename="users.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\nuser_id\n${f().memberId}\n\r\n--${boundary}--\r\n`;
      return request(`${f().platform.apiBase}/invites/${code}/target-users`, {
        method: 'PUT',
        headers: { ...bot(f().botToken), 'content-type': `multipart/form-data; boundary=${boundary}` },
        raw: body,
      });
    }),
    published(
      'get',
      '/invites/{code}/target-users/job-status',
      '200',
      spec.TargetUsersJobStatusResponseSchema,
      async () => call('GET', `/invites/${await newInvite()}/target-users/job-status`),
    ),
    published(
      'put',
      '/partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata',
      '204',
      null,
      async () => {
        const platform = f().platform;
        const [a, b] = [await fullUser(platform), await fullUser(platform)];
        await befriend(platform, a, b);
        const dm = await api(platform, a.token, 'POST', `/users/${b.id}/messages`, { content: 'moderate me' });
        expect(dm.status, dm.text).toBe(201);
        return request(
          `${platform.apiBase}/partner-sdk/dms/${b.id}/${a.id}/messages/${dm.body.id}/moderation-metadata`,
          {
            method: 'PUT',
            headers: bot(platform.devApp.botToken),
            json: { verdict: 'clean' },
          },
        );
      },
    ),
    published('put', '/channels/{channel_id}/voice-status', '204', null, () =>
      call('PUT', `/channels/${f().voiceId}/voice-status`, { status: 'Ranked grind' }),
    ),
    // Voice states (PROTOCOL.md §13.8): the owner joins the voice channel with op 4 for the reads.
    published('get', '/guilds/{guild_id}/voice-states/@me', '200', spec.VoiceStateResponseSchema, () =>
      whileInVoice(f(), (token) =>
        request(`${f().platform.apiBase}/guilds/${f().guildId}/voice-states/@me`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      ),
    ),
    published('get', '/guilds/{guild_id}/voice-states/{user_id}', '200', spec.VoiceStateResponseSchema, () =>
      whileInVoice(f(), () => call('GET', `/guilds/${f().guildId}/voice-states/${f().ownerId}`)),
    ),
  ];
}

/** Runs `read` while the fixture's owner is in its voice channel (op 4 on a user session; no voice connection). */
async function whileInVoice(f: BotFixture, read: (token: string) => Promise<TestResponse>): Promise<TestResponse> {
  const { client, token } = await inGuildVoice(f.platform, {
    username: 'alice',
    guildId: f.guildId,
    channelId: f.voiceId,
  });
  try {
    return await read(token);
  } finally {
    await client.close();
  }
}

/** AutoMod rule routes (PROTOCOL.md §14.11); the fixture's bot holds MANAGE_GUILD through a lower role. */
function autoModChecks(
  call: (method: string, path: string, json?: unknown) => Promise<TestResponse>,
  f: () => BotFixture,
): Check[] {
  const rules = () => `/guilds/${f().guildId}/auto-moderation/rules`;
  const body = {
    name: 'shape rule',
    event_type: 1,
    trigger_type: 1,
    trigger_metadata: { keyword_filter: ['shape*'] },
    actions: [{ type: 1 }],
  };
  const newRule = async () => {
    const response = await call('POST', rules(), body);
    expect(response.status, response.text).toBe(200);
    return response.body.id as string;
  };
  return [
    published('post', '/guilds/{guild_id}/auto-moderation/rules', '200', spec.KeywordRuleResponseSchema, () =>
      call('POST', rules(), body),
    ),
    published('get', '/guilds/{guild_id}/auto-moderation/rules', '200', list(spec.KeywordRuleResponseSchema), () =>
      call('GET', rules()),
    ),
    published(
      'get',
      '/guilds/{guild_id}/auto-moderation/rules/{rule_id}',
      '200',
      spec.KeywordRuleResponseSchema,
      async () => call('GET', `${rules()}/${await newRule()}`),
    ),
    published(
      'patch',
      '/guilds/{guild_id}/auto-moderation/rules/{rule_id}',
      '200',
      spec.KeywordRuleResponseSchema,
      async () => call('PATCH', `${rules()}/${await newRule()}`, { enabled: true }),
    ),
    published('delete', '/guilds/{guild_id}/auto-moderation/rules/{rule_id}', '204', null, async () =>
      call('DELETE', `${rules()}/${await newRule()}`),
    ),
  ];
}
