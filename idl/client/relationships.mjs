// The Client's relationships (friends, blocks, requests): its part of the API surface (idl/surface.mjs assembles the
// areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [
  // relationships
  {
    name: 'Client.SendFriendRequestCallback',
    doc: 'SendPlatformFriendRequest (by username) finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.UpdateRelationshipCallback',
    doc: 'A relationship change (request by id, accept, reject, cancel, remove, block, unblock) finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.RelationshipCreatedCallback',
    doc:
      'A relationship with userId was created or changed type ' +
      'on one axis (isPlatformRelationshipUpdate: the platform\n' +
      'axis, else the game axis). The cache already holds the new state.',
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'isPlatformRelationshipUpdate', type: 'bool' },
    ],
    payload: { name: 'relationship', lookup: 'GetRelationshipHandle', args: ['userId'] },
  },
  {
    name: 'Client.RelationshipDeletedCallback',
    doc:
      'The relationship with userId ended on one axis (isPlatformRelationshipUpdate: ' +
      'the platform axis, else the game axis).',
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'isPlatformRelationshipUpdate', type: 'bool' },
    ],
  },
  {
    name: 'Client.RelationshipGroupsUpdatedCallback',
    doc:
      'The group of userId in GetRelationshipsByGroup may have ' +
      'changed (relationship or presence change): re-query it.',
    params: [{ name: 'userId', type: 'u64' }],
  },
];

/**
 * The core service the generated C layer calls for this file's methods (`client->Relationships().<Name>`);
 * a method may name another with its own `area` (null: core::Client itself).
 */
export const area = 'relationships';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // relationships
  {
    name: 'GetRelationshipHandle',
    ts: {
      name: 'getRelationship',
      kind: 'lookup',
      snapshot: 'Relationship',
      doc: 'The relationship with a user, when there is one on either axis.',
    },
    const: true,
    params: [{ name: 'userId', type: 'u64' }],
    returns: 'obj:RelationshipHandle',
    optional: true,
    doc: 'The relationship with a user, when there is one on either axis (svcpp: absent instead of a None handle).',
  },
  {
    name: 'GetRelationships',
    ts: {
      name: 'getRelationships',
      kind: 'list',
      snapshot: 'Relationship',
      doc: 'Every relationship (platform and game, pending and blocked included), ordered by user id.',
    },
    const: true,
    returns: 'list:obj:RelationshipHandle',
    doc: 'Every relationship, platform and game, ordered by user id.',
  },
  {
    name: 'GetRelationshipsByGroup',
    ts: {
      name: 'getRelationshipsByGroup',
      kind: 'list',
      snapshot: 'Relationship',
      doc:
        'The friends (either axis) in one group: OnlinePlayingGame (online with an activity of this ' +
        'application),\nOnlineElsewhere, Offline. Ordered by display name (case-insensitive), then id.',
    },
    const: true,
    params: [{ name: 'groupType', type: 'enum:RelationshipGroupType' }],
    returns: 'list:obj:RelationshipHandle',
    doc:
      'Friends (either axis) in one group: OnlinePlayingGame = online with an activity of this application,\n' +
      'OnlineElsewhere = online otherwise, Offline = every other relationship (pending, blocked, offline friends).\n' +
      'Ordered by display name (case-insensitive), then user id.',
  },
  {
    name: 'SearchFriendsByUsername',
    ts: {
      name: 'searchFriendsByUsername',
      kind: 'list',
      snapshot: 'User',
      doc: "Friends whose username or display name contains `searchStr` (case-insensitive), in the groups' order.",
    },
    const: true,
    params: [{ name: 'searchStr', type: 'string', max: 256 }],
    returns: 'list:obj:UserHandle',
    doc:
      'Friends (either axis) whose username or display name contains ' +
      'searchStr (case-insensitive); same order as the groups.',
  },
  {
    name: 'SendPlatformFriendRequest',
    ts: {
      name: 'sendPlatformFriendRequest',
      kind: 'void',
      doc: 'Platform friend request by username (accepts a pending request from that user).',
    },
    params: [
      { name: 'username', type: 'string', max: 256 },
      { name: 'cb', type: 'cb:Client.SendFriendRequestCallback' },
    ],
    doc: 'Platform friend request by username (accepts a pending incoming request from that user).',
  },
  {
    name: 'SendPlatformFriendRequestById',
    ts: {
      name: 'sendPlatformFriendRequestById',
      kind: 'void',
      doc: 'Platform friend request by user id (accepts a pending request from that user).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Platform friend request by user id (accepts a pending incoming one).',
  },
  {
    name: 'SendGameFriendRequest',
    ts: { name: 'sendGameFriendRequest', kind: 'void', doc: 'Game friend request (this application) by username.' },
    params: [
      { name: 'username', type: 'string', max: 256 },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Game friend request (this application) by username.',
  },
  {
    name: 'SendGameFriendRequestById',
    ts: { name: 'sendGameFriendRequestById', kind: 'void', doc: 'Game friend request (this application) by user id.' },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Game friend request (this application) by user id.',
  },
  {
    name: 'AcceptPlatformFriendRequest',
    ts: {
      name: 'acceptPlatformFriendRequest',
      kind: 'void',
      doc: 'Accepts a pending incoming platform request (ERR_SVCPP_VALIDATION without one).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Accepts a pending incoming platform request (ValidationError without one).',
  },
  {
    name: 'AcceptGameFriendRequest',
    ts: {
      name: 'acceptGameFriendRequest',
      kind: 'void',
      doc: 'Accepts a pending incoming game request (ERR_SVCPP_VALIDATION without one).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Accepts a pending incoming game request (ValidationError without one).',
  },
  {
    name: 'RejectPlatformFriendRequest',
    ts: {
      name: 'rejectPlatformFriendRequest',
      kind: 'void',
      doc: 'Rejects a pending incoming platform request (ERR_SVCPP_VALIDATION without one).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Rejects a pending incoming platform request (ValidationError without one).',
  },
  {
    name: 'RejectGameFriendRequest',
    ts: {
      name: 'rejectGameFriendRequest',
      kind: 'void',
      doc: 'Rejects a pending incoming game request (ERR_SVCPP_VALIDATION without one).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Rejects a pending incoming game request (ValidationError without one).',
  },
  {
    name: 'CancelPlatformFriendRequest',
    ts: {
      name: 'cancelPlatformFriendRequest',
      kind: 'void',
      doc: 'Withdraws a pending outgoing platform request (ERR_SVCPP_VALIDATION without one).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Withdraws a pending outgoing platform request (ValidationError without one).',
  },
  {
    name: 'CancelGameFriendRequest',
    ts: {
      name: 'cancelGameFriendRequest',
      kind: 'void',
      doc: 'Withdraws a pending outgoing game request (ERR_SVCPP_VALIDATION without one).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Withdraws a pending outgoing game request (ValidationError without one).',
  },
  {
    name: 'RemovePlatformAndGameFriend',
    ts: {
      name: 'removePlatformAndGameFriend',
      kind: 'void',
      doc: 'Ends the friendship on both axes (ERR_SVCPP_VALIDATION when not a friend on either).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Ends the friendship on both axes (ValidationError when not a friend on either).',
  },
  {
    name: 'RemoveGameFriend',
    ts: {
      name: 'removeGameFriend',
      kind: 'void',
      doc: 'Ends the game friendship only (ERR_SVCPP_VALIDATION when not a game friend).',
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Ends the game friendship only (ValidationError when not a game friend).',
  },
  {
    name: 'BlockUser',
    ts: { name: 'blockUser', kind: 'void', doc: 'Blocks a user: every relationship with them ends, both ways.' },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Blocks a user (platform axis); removes every relationship with them, both ways.',
  },
  {
    name: 'UnblockUser',
    ts: { name: 'unblockUser', kind: 'void', doc: 'Unblocks a blocked user (ERR_SVCPP_VALIDATION when not blocked).' },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.UpdateRelationshipCallback' },
    ],
    doc: 'Unblocks a blocked user (ValidationError when not blocked).',
  },
  {
    name: 'SetRelationshipCreatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.RelationshipCreatedCallback', nullable: true }],
    doc: 'Single slot: a relationship was created or changed type. NULL clears it.',
  },
  {
    name: 'SetRelationshipDeletedCallback',
    params: [{ name: 'cb', type: 'cb:Client.RelationshipDeletedCallback', nullable: true }],
    doc: 'Single slot: a relationship ended. NULL clears it.',
  },
  {
    name: 'SetRelationshipGroupsUpdatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.RelationshipGroupsUpdatedCallback', nullable: true }],
    doc: "Single slot: a user's group may have changed. NULL clears it.",
  },
];
