/**
 * Application emoji (PROTOCOL.md §14.1): `GET/POST /applications/{id}/emojis`, `GET/PATCH/DELETE …/emojis/{emoji}`.
 * Only the application's own bot; names 2–32 of `A–Z a–z 0–9 _`, unique per application; at most 2,000 per
 * application (30008). The image (a data URI) is kept as a hash: there is no CDN.
 */
import type { PlatformKernel } from '../../kernel.js';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { botOf, pathParams, type ApiArea } from '../../http/api.js';
import { fieldError } from '../../http/errors.js';
import { imageDataUriSchema } from '../../http/validation.js';
import type { ApplicationEmojiRecord } from '../../store/bot-types.js';
import { knownUserJson } from '../../users/serialize.js';
import { GuildErrors } from '../guilds/errors.js';
import { publishedError } from '../../http/published-errors.js';
import { requireById } from '../../ids/snowflake.js';

const MAX_EMOJIS = 2000;
const name = z
  .string()
  .min(2)
  .max(32)
  .regex(/^[A-Za-z0-9_]+$/, { message: 'Emoji names use A–Z, a–z, 0–9 and _.' });
const image = imageDataUriSchema;

const unknownEmoji = () => publishedError('UNKNOWN_EMOJI');
const tooMany = () => publishedError('MAX_EMOJIS', { limit: MAX_EMOJIS });

export const emojiRoutes =
  (ctx: PlatformKernel): ApiArea =>
  (app) => {
    const store = ctx.store.botGuilds;
    const json = (emoji: ApplicationEmojiRecord) => ({
      id: emoji.id,
      name: emoji.name,
      user: knownUserJson(ctx, emoji.userId),
      roles: [],
      require_colons: true,
      managed: false,
      animated: emoji.animated,
      available: true,
    });
    /** The caller's own application only; another application's id answers like a guild the caller is not in. */
    const ownApp = (request: Parameters<typeof botOf>[0], id: string) => {
      const caller = botOf(request);
      if (caller.app.id !== id) throw GuildErrors.missingAccess();
      return caller;
    };
    const find = (appId: string, id: string) => {
      const emoji = requireById(id, (id) => store.getEmoji(appId, id), unknownEmoji);
      return emoji;
    };
    const bot = { auth: { kind: 'bot' } } as const;

    app.get(
      '/applications/:applicationId/emojis',
      { config: bot, schema: { params: pathParams('applicationId') } },
      async (request) => {
        const caller = ownApp(request, request.params.applicationId);
        return { items: store.listEmojis(caller.app.id).map(json) };
      },
    );

    app.post(
      '/applications/:applicationId/emojis',
      { config: bot, schema: { params: pathParams('applicationId'), body: z.object({ name, image }) } },
      async (request, reply) => {
        const caller = ownApp(request, request.params.applicationId);
        if (store.findEmojiByName(caller.app.id, request.body.name))
          throw fieldError(['name'], 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN', 'An emoji with this name already exists.');
        if (store.countEmojis(caller.app.id) >= MAX_EMOJIS) throw tooMany();
        const emoji: ApplicationEmojiRecord = {
          id: ctx.ids.next(),
          applicationId: caller.app.id,
          name: request.body.name,
          image: createHash('sha256').update(request.body.image).digest('hex').slice(0, 32),
          userId: caller.app.ownerUserId ?? caller.user.id,
          animated: request.body.image.startsWith('data:image/gif'),
        };
        store.upsertEmoji(emoji);
        return reply.code(201).send(json(emoji));
      },
    );

    app.get(
      '/applications/:applicationId/emojis/:emojiId',
      { config: bot, schema: { params: pathParams('applicationId', 'emojiId') } },
      async (request) => {
        const caller = ownApp(request, request.params.applicationId);
        return json(find(caller.app.id, request.params.emojiId));
      },
    );

    app.patch(
      '/applications/:applicationId/emojis/:emojiId',
      { config: bot, schema: { params: pathParams('applicationId', 'emojiId'), body: z.object({ name }) } },
      async (request) => {
        const caller = ownApp(request, request.params.applicationId);
        const emoji = find(caller.app.id, request.params.emojiId);
        const holder = store.findEmojiByName(caller.app.id, request.body.name);
        if (holder && holder.id !== emoji.id)
          throw fieldError(['name'], 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN', 'An emoji with this name already exists.');
        const updated = { ...emoji, name: request.body.name };
        store.upsertEmoji(updated);
        return json(updated);
      },
    );

    app.delete(
      '/applications/:applicationId/emojis/:emojiId',
      { config: bot, schema: { params: pathParams('applicationId', 'emojiId') } },
      async (request, reply) => {
        const caller = ownApp(request, request.params.applicationId);
        store.deleteEmoji(caller.app.id, find(caller.app.id, request.params.emojiId).id);
        return reply.code(204).send();
      },
    );
  };
