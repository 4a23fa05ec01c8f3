// The Client's lobbies: its part of the API surface (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [
  // lobbies
  {
    name: 'Client.CreateOrJoinLobbyCallback',
    doc: 'CreateOrJoinLobby finished: the lobby id (0 on failure).',
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'lobbyId', type: 'u64' },
    ],
  },
  {
    name: 'Client.LeaveLobbyCallback',
    doc: 'LeaveLobby finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.LobbyCreatedCallback',
    doc: 'A lobby became available (created, joined, added, or recovered after a reconnect; may repeat).',
    params: [{ name: 'lobbyId', type: 'u64' }],
  },
  {
    name: 'Client.LobbyDeletedCallback',
    doc: 'A lobby is gone for this user: deleted, this user left or was removed, or the connection was lost.',
    params: [{ name: 'lobbyId', type: 'u64' }],
  },
  {
    name: 'Client.LobbyUpdatedCallback',
    doc: 'A lobby changed (metadata, linked channel).',
    params: [{ name: 'lobbyId', type: 'u64' }],
  },
  {
    name: 'Client.LobbyMemberAddedCallback',
    doc: 'Another user became a member of a lobby.',
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'memberId', type: 'u64' },
    ],
  },
  {
    name: 'Client.LobbyMemberRemovedCallback',
    doc: 'Another user stopped being a member of a lobby (not when they merely go offline).',
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'memberId', type: 'u64' },
    ],
  },
  {
    name: 'Client.LobbyMemberUpdatedCallback',
    doc: 'Another member changed: connected, metadata, flags or additional name.',
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'memberId', type: 'u64' },
    ],
  },
  {
    name: 'Client.LinkOrUnlinkChannelCallback',
    doc: 'LinkChannelToLobby or UnlinkChannelFromLobby finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.ProvisionalUserMergeRequiredCallback',
    doc:
      'The operation needs a full account: the signed-in ' +
      'provisional user must merge first (the operation fails too).',
    params: [],
  },
  {
    name: 'Client.JoinLinkedLobbyGuildCallback',
    doc: "JoinLinkedLobbyGuild finished: a single-use invite URL to the linked channel's guild.",
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'inviteUrl', type: 'string' },
    ],
  },
];

/**
 * The core service the generated C layer calls for this file's methods (`client->Lobbies().<Name>`);
 * a method may name another with its own `area` (null: core::Client itself).
 */
export const area = 'lobbies';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // lobbies (secret 1–250 code points, platform/PROTOCOL.md §10)
  {
    name: 'CreateOrJoinLobby',
    params: [
      { name: 'secret', type: 'string' },
      { name: 'cb', type: 'cb:Client.CreateOrJoinLobbyCallback' },
    ],
    doc: 'Creates the lobby of this secret, or joins it when it exists; the same secret always names the same lobby.',
  },
  {
    name: 'CreateOrJoinLobbyWithMetadata',
    params: [
      { name: 'secret', type: 'string' },
      { name: 'lobbyMetadata', type: 'map' },
      { name: 'memberMetadata', type: 'map' },
      { name: 'cb', type: 'cb:Client.CreateOrJoinLobbyCallback' },
    ],
    doc:
      "CreateOrJoinLobby that also overwrites the lobby's and " +
      "this member's metadata (≤ 25 keys, values ≤ 1024 each).",
  },
  {
    name: 'LeaveLobby',
    ts: {
      name: 'leaveLobby',
      kind: 'void',
      doc: "Leaves a lobby joined by secret ('lobbyDeleted' follows for this user).",
    },
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.LeaveLobbyCallback' },
    ],
    doc: 'Leaves a lobby joined by secret (lobbies the server added the user to cannot be left).',
  },
  {
    name: 'GetLobbyHandle',
    ts: {
      name: 'getLobby',
      kind: 'lookup',
      snapshot: 'Lobby',
      doc: 'A lobby the user is a member of, from the cache.',
    },
    const: true,
    params: [{ name: 'lobbyId', type: 'u64' }],
    returns: 'obj:LobbyHandle',
    optional: true,
    doc: 'A lobby the user is a member of; absent otherwise.',
  },
  {
    name: 'GetLobbyIds',
    const: true,
    returns: 'list:u64',
    doc: 'The lobbies the user is a member of (may be incomplete right after Ready).',
  },
  {
    name: 'SetLobbyCreatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.LobbyCreatedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetLobbyDeletedCallback',
    params: [{ name: 'cb', type: 'cb:Client.LobbyDeletedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetLobbyUpdatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.LobbyUpdatedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetLobbyMemberAddedCallback',
    params: [{ name: 'cb', type: 'cb:Client.LobbyMemberAddedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetLobbyMemberRemovedCallback',
    params: [{ name: 'cb', type: 'cb:Client.LobbyMemberRemovedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetLobbyMemberUpdatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.LobbyMemberUpdatedCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'LinkChannelToLobby',
    ts: {
      name: 'linkChannelToLobby',
      kind: 'void',
      doc: 'Links a lobby to a guild text channel (the member needs canLinkLobby and the channel must be linkable).',
    },
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'channelId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.LinkOrUnlinkChannelCallback' },
    ],
    doc: 'Links a lobby to a guild text channel (the member needs CanLinkLobby and the channel must be linkable).',
  },
  {
    name: 'UnlinkChannelFromLobby',
    ts: { name: 'unlinkChannelFromLobby', kind: 'void', doc: "Removes the lobby's channel link." },
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.LinkOrUnlinkChannelCallback' },
    ],
    doc: "Removes the lobby's channel link.",
  },
  {
    name: 'JoinLinkedLobbyGuild',
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'provisionalUserMergeRequiredCallback', type: 'cb:Client.ProvisionalUserMergeRequiredCallback' },
      { name: 'cb', type: 'cb:Client.JoinLinkedLobbyGuildCallback' },
    ],
    doc:
      "A single-use invite to the guild of the lobby's linked channel. " +
      'A provisional user gets the merge callback and a failed cb.',
  },
];
