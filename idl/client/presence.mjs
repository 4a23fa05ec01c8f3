// The Client's rich presence and game invites: its part of the API surface (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [
  // presence and invites
  {
    name: 'Client.UpdateRichPresenceCallback',
    doc: 'UpdateRichPresence finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.UpdateStatusCallback',
    doc: 'SetOnlineStatus finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.SendActivityInviteCallback',
    doc: 'SendActivityInvite, SendActivityJoinRequest or SendActivityJoinRequestReply finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.AcceptActivityInviteCallback',
    doc: "AcceptActivityInvite finished: on success joinSecret is the join secret of the sender's current activity.",
    params: [
      { name: 'result', type: 'obj:ClientResult' },
      { name: 'joinSecret', type: 'string' },
    ],
  },
  {
    name: 'Client.ActivityInviteCallback',
    doc: 'A game invite was received (created) or became invalid (updated). Borrowed: Clone what you keep.',
    params: [{ name: 'invite', type: 'obj:ActivityInvite' }],
  },
  {
    name: 'Client.ActivityJoinCallback',
    doc: 'The user accepted a game invite in the platform client UI: join with joinSecret.',
    params: [{ name: 'joinSecret', type: 'string' }],
  },
  {
    name: 'Client.ActivityJoinWithApplicationCallback',
    doc: 'Like ActivityJoinCallback, with the application the invite was for.',
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'joinSecret', type: 'string' },
    ],
  },
];

/**
 * The core service the generated C layer calls for this file's methods (`client->Presence().<Name>`);
 * a method may name another with its own `area` (null: core::Client itself).
 */
export const area = 'presence';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // presence and invites
  {
    name: 'UpdateRichPresence',
    params: [
      { name: 'activity', type: 'obj:Activity' },
      { name: 'cb', type: 'cb:Client.UpdateRichPresenceCallback' },
    ],
    doc:
      "Sets this application's activity (validated locally: ValidationError naming the field; nothing sent).\n" +
      'ApplicationId is filled in; timestamps below 100000000000 are taken as seconds. Needs Ready — or, without a\n' +
      'gateway session, a local platform client, which sets it for its desktop user (SET_ACTIVITY).',
  },
  {
    name: 'ClearRichPresence',
    ts: {
      name: 'clearRichPresence',
      kind: 'value',
      doc:
        "Removes this application's activity (fire and forget; a failure is logged). " +
        'Through the local platform client too when there is no gateway session.',
    },
    doc:
      "Removes this application's activity (fire and forget; failures are logged). Through the local\n" +
      'platform client too when there is no gateway session.',
  },
  {
    name: 'SetOnlineStatus',
    ts: {
      name: 'setOnlineStatus',
      kind: 'void',
      doc: 'Online, Idle, Dnd or Invisible (others: ERR_SVCPP_VALIDATION).',
    },
    params: [
      { name: 'status', type: 'enum:StatusType' },
      { name: 'cb', type: 'cb:Client.UpdateStatusCallback' },
    ],
    doc: 'Online, Idle, Dnd or Invisible (others: ValidationError). Needs Ready.',
  },
  {
    name: 'SendActivityInvite',
    area: 'invites',
    ts: {
      name: 'sendActivityInvite',
      kind: 'void',
      defaults: { content: "''" },
      doc: "Invites a user to this user's activity, which must be joinable (party with room and a join secret).",
    },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'content', type: 'string', max: 1024 },
      { name: 'cb', type: 'cb:Client.SendActivityInviteCallback' },
    ],
    doc: "Invites a user to join this user's activity, which must be joinable (party with room and a join secret).",
  },
  {
    name: 'SendActivityJoinRequest',
    area: 'invites',
    ts: { name: 'sendActivityJoinRequest', kind: 'void', doc: 'Asks a user whose activity is joinable for an invite.' },
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.SendActivityInviteCallback' },
    ],
    doc: 'Asks a user whose activity is joinable for an invite.',
  },
  {
    name: 'SendActivityJoinRequestReply',
    area: 'invites',
    params: [
      { name: 'invite', type: 'obj:ActivityInvite' },
      { name: 'cb', type: 'cb:Client.SendActivityInviteCallback' },
    ],
    doc: 'Answers a join request (an ActivityInvite of type JoinRequest) with an invite to its sender.',
  },
  {
    name: 'AcceptActivityInvite',
    area: 'invites',
    params: [
      { name: 'invite', type: 'obj:ActivityInvite' },
      { name: 'cb', type: 'cb:Client.AcceptActivityInviteCallback' },
    ],
    doc: "Accepts an invite of type Join: completes with the join secret of the sender's current activity.",
  },
  {
    name: 'SetActivityInviteCreatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.ActivityInviteCallback', nullable: true }],
    doc: 'Single slot: an invite or join request was received. NULL clears it.',
  },
  {
    name: 'SetActivityInviteUpdatedCallback',
    params: [{ name: 'cb', type: 'cb:Client.ActivityInviteCallback', nullable: true }],
    doc: 'Single slot: a received invite became invalid. NULL clears it.',
  },
  {
    name: 'SetActivityJoinCallback',
    area: 'localClient',
    params: [{ name: 'cb', type: 'cb:Client.ActivityJoinCallback', nullable: true }],
    doc:
      'Single slot: the user joined from the local platform client (ACTIVITY_JOIN over local RPC, subscribed while\n' +
      'this or SetActivityJoinWithApplicationCallback is set). Without a local client it never fires. NULL clears it.',
  },
  {
    name: 'SetActivityJoinWithApplicationCallback',
    area: 'localClient',
    params: [{ name: 'cb', type: 'cb:Client.ActivityJoinWithApplicationCallback', nullable: true }],
    doc:
      "Like SetActivityJoinCallback, with the application id (SetApplicationId's, " +
      'the one the local RPC connection is for).',
  },
  {
    name: 'RegisterLaunchCommand',
    area: 'localClient',
    ts: {
      name: 'registerLaunchCommand',
      kind: 'value',
      defaults: { command: "''" },
      doc: "How the local platform client starts the game for a join (shell command line; '' = this executable).",
    },
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'command', type: 'string', max: 1024 },
    ],
    doc:
      'How the local platform client starts this game for a join (a shell command line; empty = this executable).\n' +
      'Kept and sent whenever a local client connects. ' +
      'InvalidArgument when applicationId is 0 (svcpp: Errc, not bool).',
  },
  {
    name: 'RegisterLaunchSteamApplication',
    area: 'localClient',
    ts: {
      name: 'registerLaunchSteamApplication',
      kind: 'value',
      doc: 'Like registerLaunchCommand(): the local platform client starts the game through Steam.',
    },
    params: [
      { name: 'applicationId', type: 'u64' },
      { name: 'steamAppId', type: 'u32' },
    ],
    doc:
      'Like RegisterLaunchCommand: the local platform client ' +
      'starts the game through Steam (steam://rungameid/<id>).\n' +
      'InvalidArgument when an id is 0 (svcpp: Errc, not bool).',
  },
  {
    name: 'OpenConnectedGamesSettingsInPlatform',
    area: 'localClient',
    ts: {
      name: 'openConnectedGamesSettingsInPlatform',
      kind: 'void',
      doc:
        'Opens the connected-games settings in the local platform ' +
        'client (provisional users: resolves, does nothing).',
    },
    params: [{ name: 'cb', type: 'cb:Client.OpenConnectedGamesSettingsInPlatformCallback' }],
    doc:
      'Opens the connected-games settings in the local platform client. Success without doing anything for a\n' +
      'provisional user; without a local client: RPCError.',
  },
];
