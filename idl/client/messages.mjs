// The Client's lobby and direct messages: its part of the API surface (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [
  // messages
  {
    name: 'Client.SendUserMessageCallback',
    doc: 'A lobby or direct message was sent: messageId is its id (0 on failure).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'messageId', type: 'u64' },
    ],
  },
  {
    name: 'Client.EditUserMessageCallback',
    doc: 'EditUserMessage finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.DeleteUserMessageCallback',
    doc: 'DeleteUserMessage finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.GetLobbyMessagesCallback',
    doc: 'GetLobbyMessagesWithLimit finished: the messages, newest first (borrowed; Clone what you keep).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'messages', type: 'list:obj:MessageHandle' },
    ],
  },
  {
    name: 'Client.UserMessagesWithLimitCallback',
    doc: 'GetUserMessagesWithLimit finished: the messages, newest first (borrowed; Clone what you keep).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'messages', type: 'list:obj:MessageHandle' },
    ],
  },
  {
    name: 'Client.UserMessageSummariesCallback',
    doc: 'GetUserMessageSummaries finished: one summary per DM partner, most recent conversation first (borrowed).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'summaries', type: 'list:obj:UserMessageSummary' },
    ],
  },
  {
    name: 'Client.MessageCreatedCallback',
    doc: 'A lobby or direct message arrived (or was sent by this user); read it with GetMessageHandle.',
    params: [{ name: 'messageId', type: 'u64' }],
    payload: { name: 'message', lookup: 'GetMessageHandle', args: ['messageId'] },
  },
  {
    name: 'Client.MessageUpdatedCallback',
    doc: 'A cached message changed (edited, moderation metadata); read it with GetMessageHandle.',
    params: [{ name: 'messageId', type: 'u64' }],
    payload: { name: 'message', lookup: 'GetMessageHandle', args: ['messageId'] },
  },
  {
    name: 'Client.MessageDeletedCallback',
    doc: 'A message was deleted; channelId is its DM channel (as this user sees it) or lobby.',
    params: [
      { name: 'messageId', type: 'u64' },
      { name: 'channelId', type: 'u64' },
    ],
  },
];

/**
 * The core service the generated C layer calls for this file's methods (`client->Messages().<Name>`);
 * a method may name another with its own `area` (null: core::Client itself).
 */
export const area = 'messages';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // messages (limits, platform/PROTOCOL.md §10: content 1–2000 code points, metadata ≤ 25 keys, values ≤ 1024)
  {
    name: 'SendLobbyMessage',
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'content', type: 'string' },
      { name: 'cb', type: 'cb:Client.SendUserMessageCallback' },
    ],
    doc: 'Sends a message to a lobby the user is a member of.',
  },
  {
    name: 'SendLobbyMessageWithMetadata',
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'content', type: 'string' },
      { name: 'metadata', type: 'map' },
      { name: 'cb', type: 'cb:Client.SendUserMessageCallback' },
    ],
    doc: 'SendLobbyMessage with metadata for the receivers (≤ 25 keys, values ≤ 1024).',
  },
  {
    name: 'SendUserMessage',
    params: [
      { name: 'recipientId', type: 'u64' },
      { name: 'content', type: 'string' },
      { name: 'cb', type: 'cb:Client.SendUserMessageCallback' },
    ],
    doc: 'Sends a direct message (persistent between friends with a full account, else ephemeral).',
  },
  {
    name: 'SendUserMessageWithMetadata',
    params: [
      { name: 'recipientId', type: 'u64' },
      { name: 'content', type: 'string' },
      { name: 'metadata', type: 'map' },
      { name: 'cb', type: 'cb:Client.SendUserMessageCallback' },
    ],
    doc: 'SendUserMessage with metadata for the receiver (≤ 25 keys, values ≤ 1024).',
  },
  {
    name: 'EditUserMessage',
    ts: { name: 'editUserMessage', kind: 'void', doc: 'Replaces the text of a direct message this user sent.' },
    params: [
      { name: 'recipientId', type: 'u64' },
      { name: 'messageId', type: 'u64' },
      { name: 'content', type: 'string' },
      { name: 'cb', type: 'cb:Client.EditUserMessageCallback' },
    ],
    doc: 'Replaces the text of a direct message this user sent.',
  },
  {
    name: 'DeleteUserMessage',
    ts: { name: 'deleteUserMessage', kind: 'void', doc: 'Deletes a direct message this user sent.' },
    params: [
      { name: 'recipientId', type: 'u64' },
      { name: 'messageId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.DeleteUserMessageCallback' },
    ],
    doc: 'Deletes a direct message this user sent.',
  },
  {
    name: 'GetMessageHandle',
    ts: {
      name: 'getMessage',
      kind: 'lookup',
      snapshot: 'Message',
      doc: 'A cached message (the 25 most recent per channel); never fetches.',
    },
    const: true,
    params: [{ name: 'messageId', type: 'u64' }],
    returns: 'obj:MessageHandle',
    optional: true,
    doc: 'A cached message (the 25 most recent per channel); absent otherwise. Never fetches.',
  },
  {
    name: 'GetChannelHandle',
    ts: {
      name: 'getChannel',
      kind: 'lookup',
      snapshot: 'Channel',
      doc: 'A persistent DM channel or a lobby the user is in (ephemeral DMs have no channel).',
    },
    const: true,
    params: [{ name: 'channelId', type: 'u64' }],
    returns: 'obj:ChannelHandle',
    optional: true,
    doc:
      'A persistent DM channel the cache knows, or a lobby the user is in; ' +
      'absent otherwise (ephemeral DMs have no channel).',
  },
  {
    name: 'GetLobbyMessagesWithLimit',
    ts: {
      name: 'getLobbyMessages',
      kind: 'snapshots',
      snapshot: 'Message',
      defaults: { limit: '0' },
      doc:
        "The lobby's recent messages, newest first. limit ≤ 0 means 200; " +
        'above 200 rejects with ERR_SVCPP_VALIDATION.',
    },
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'limit', type: 'i32' },
      { name: 'cb', type: 'cb:Client.GetLobbyMessagesCallback' },
    ],
    doc: "The lobby's recent messages over HTTP, newest first; limit <= 0 means 200, above 200 is a ValidationError.",
  },
  {
    name: 'GetUserMessagesWithLimit',
    ts: {
      name: 'getUserMessages',
      kind: 'snapshots',
      snapshot: 'Message',
      defaults: { limit: '0' },
      doc:
        'The recent direct messages with a user, newest first: ' +
        'cached ones, completed over HTTP when there are fewer than limit.',
    },
    params: [
      { name: 'recipientId', type: 'u64' },
      { name: 'limit', type: 'i32' },
      { name: 'cb', type: 'cb:Client.UserMessagesWithLimitCallback' },
    ],
    doc:
      'The recent direct messages with a user, newest first: ' +
      'from the cache, completed over HTTP when it holds fewer than limit\n' +
      '(limit <= 0 means 200, above 200 is a ValidationError).',
  },
  {
    name: 'GetUserMessageSummaries',
    ts: {
      name: 'getUserMessageSummaries',
      kind: 'snapshots',
      snapshot: 'UserMessageSummary',
      doc: 'The latest message with every DM partner (last 72 h), most recent conversation first.',
    },
    params: [{ name: 'cb', type: 'cb:Client.UserMessageSummariesCallback' }],
    doc: 'The latest message with every DM partner (last 72 h).',
  },
  {
    name: 'CanOpenMessageInPlatform',
    ts: {
      name: 'canOpenMessageInPlatform',
      kind: 'value',
      doc:
        'True when the message is cached and also visible in ' +
        "the platform's own client (persistent DM, linked lobby).",
    },
    const: true,
    params: [{ name: 'messageId', type: 'u64' }],
    returns: 'bool',
    doc:
      'True when the message is cached and synced to the ' +
      'platform (a persistent DM, or a lobby linked to a channel).',
  },
  {
    name: 'SetMessageCreatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.MessageCreatedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetMessageUpdatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.MessageUpdatedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetMessageDeletedCallback',
    params: [{ name: 'cb', type: 'cb:Client.MessageDeletedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'OpenMessageInPlatform',
    area: 'localClient',
    params: [
      { name: 'messageId', type: 'u64' },
      { name: 'provisionalUserMergeRequiredCallback', type: 'cb:Client.ProvisionalUserMergeRequiredCallback' },
      { name: 'cb', type: 'cb:Client.OpenMessageInPlatformCallback' },
    ],
    doc:
      'Shows the message in the local platform client. A provisional user gets the merge callback and a failed cb;\n' +
      'a message CanOpenMessageInPlatform refuses is a ValidationError; without a local client: RPCError.',
  },
  {
    name: 'SetShowingChat',
    area: 'localClient',
    ts: {
      name: 'setShowingChat',
      kind: 'value',
      doc:
        'Whether the game shows chat itself (the local client holds ' +
        'back duplicate notifications); kept across reconnects.',
    },
    params: [{ name: 'showingChat', type: 'bool' }],
    doc:
      'Tells the local platform client whether the game shows chat (it then holds back duplicate notifications).\n' +
      'Kept and sent again whenever a local client connects; without one it only takes effect later.',
  },
];
