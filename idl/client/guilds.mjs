// The Client's guilds and their channels (lobby linking): its part of the API surface (idl/surface.mjs assembles the
// areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [];

/**
 * The core service the generated C layer calls for this file's methods (`client->Guilds().<Name>`);
 * a method may name another with its own `area` (null: core::Client itself).
 */
export const area = 'guilds';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // guilds
  {
    name: 'GetUserGuilds',
    ts: {
      name: 'getUserGuilds',
      kind: 'snapshots',
      snapshot: 'Guild',
      doc: "The guilds the user of updateToken()'s token is a member of (ERR_SVCPP_VALIDATION without a token).",
    },
    params: [{ name: 'cb', type: 'cb:Client.GetUserGuildsCallback' }],
    doc: "The guilds the user of UpdateToken's token is a member of (ValidationError without a token).",
  },
  {
    name: 'GetGuildChannels',
    ts: {
      name: 'getGuildChannels',
      kind: 'snapshots',
      snapshot: 'GuildChannel',
      doc: 'The channels of a guild the user is a member of, sorted by position (ERR_SVCPP_HTTP 403/404 otherwise).',
    },
    params: [
      { name: 'guildId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.GetGuildChannelsCallback' },
    ],
    doc: 'The channels of a guild the user is a member of, sorted by position (ValidationError without a token).',
  },
];
