import { ApiError } from './api-error.js';

/**
 * Every JSON error code the platform answers with, once: HTTP status, numeric code and message, by name (libuv's
 * UV_ERRNO_MAP idea). Codes below 100000 and the 530000 family are the published service's (its "JSON Error Codes"
 * table, with its messages); the areas' `errors.ts` files and routes refer to an entry by name, so a code is never
 * declared twice and never drifts between areas. A `{name}` in a message is filled from the arguments of
 * `publishedError`. Code 0 (a problem with the request itself) is `Errors.httpStatus` in errors.ts.
 */
export const PUBLISHED_ERRORS = {
  // 10xxx: unknown objects
  UNKNOWN_APPLICATION: { status: 404, code: 10002, message: 'Unknown Application' },
  UNKNOWN_CHANNEL: { status: 404, code: 10003, message: 'Unknown Channel' },
  UNKNOWN_GUILD: { status: 404, code: 10004, message: 'Unknown Guild' },
  UNKNOWN_INVITE: { status: 404, code: 10006, message: 'Unknown Invite' },
  UNKNOWN_MEMBER: { status: 404, code: 10007, message: 'Unknown Member' },
  UNKNOWN_MESSAGE: { status: 404, code: 10008, message: 'Unknown Message' },
  UNKNOWN_OVERWRITE: { status: 404, code: 10009, message: 'Unknown Overwrite' },
  UNKNOWN_ROLE: { status: 404, code: 10011, message: 'Unknown Role' },
  UNKNOWN_USER: { status: 404, code: 10013, message: 'Unknown User' },
  /** A reaction naming an emoji that does not exist is a bad request (400), as published. */
  UNKNOWN_EMOJI_IN_REACTION: { status: 400, code: 10014, message: 'Unknown Emoji' },
  UNKNOWN_EMOJI: { status: 404, code: 10014, message: 'Unknown Emoji' },
  UNKNOWN_WEBHOOK: { status: 404, code: 10015, message: 'Unknown Webhook' },
  UNKNOWN_ENTITLEMENT: { status: 404, code: 10029, message: 'Unknown Entitlement' },
  UNKNOWN_LOBBY: { status: 404, code: 10031, message: 'Unknown Lobby' },
  UNKNOWN_INTERACTION: { status: 404, code: 10062, message: 'Unknown interaction' },
  UNKNOWN_COMMAND: { status: 404, code: 10063, message: 'Unknown application command' },
  UNKNOWN_VOICE_STATE: { status: 404, code: 10065, message: 'Unknown Voice State' },
  UNKNOWN_COMMAND_PERMISSIONS: { status: 404, code: 10066, message: 'Unknown application command permissions' },
  UNKNOWN_AUTOMOD_RULE: { status: 404, code: 10066, message: 'Unknown auto moderation rule' },
  // 2xxxx: who may call
  BOTS_CANNOT_USE: { status: 403, code: 20001, message: 'Bots cannot use this endpoint' },
  ONLY_BOTS_CAN_USE: { status: 403, code: 20002, message: 'Only bots can use this endpoint' },
  SLOWMODE: { status: 429, code: 20016, message: 'This action cannot be performed due to slowmode rate limit.' },
  // 3xxxx: limits
  MAX_PINS: { status: 400, code: 30003, message: 'Maximum number of pins reached (250)' },
  MAX_ROLES: { status: 400, code: 30005, message: 'Maximum number of guild roles reached (250)' },
  MAX_EMOJIS: { status: 400, code: 30008, message: 'Maximum number of emojis reached ({limit})' },
  MAX_REACTIONS: { status: 400, code: 30010, message: 'Maximum number of reactions reached (20)' },
  MAX_CHANNELS: { status: 400, code: 30013, message: 'Maximum number of guild channels reached ({limit})' },
  MAX_FRIENDS: { status: 400, code: 30014, message: 'Maximum number of friends reached ({limit})' },
  MAX_ATTACHMENTS: {
    status: 400,
    code: 30015,
    message: 'Maximum number of attachments in a message reached ({limit})',
  },
  MAX_COMMANDS: { status: 400, code: 30032, message: 'Maximum number of application commands reached' },
  MAX_LOBBY_MEMBERS: { status: 400, code: 30050, message: 'Maximum number of lobby members reached ({limit})' },
  /** A guild voice channel's call is full (a voice gateway refusal, not an HTTP answer). */
  MAX_CALL_PARTICIPANTS: { status: 400, code: 30050, message: 'Maximum number of call participants reached' },
  MAX_LOBBIES: { status: 400, code: 30051, message: 'Maximum number of lobbies reached ({limit})' },
  // 4xxxx: request state
  TOO_LARGE: { status: 413, code: 40005, message: 'Request entity too large' },
  ALREADY_ACKNOWLEDGED: { status: 400, code: 40060, message: 'Interaction has already been acknowledged.' },
  MAX_FOLLOWUPS: {
    status: 400,
    code: 40094,
    message: 'This interaction has hit the maximum number of follow up messages',
  },
  // 5xxxx: access and validation
  MISSING_ACCESS: { status: 403, code: 50001, message: 'Missing Access' },
  CANNOT_EDIT_OTHERS: { status: 403, code: 50005, message: 'Cannot edit a message authored by another user' },
  EMPTY_MESSAGE: { status: 400, code: 50006, message: 'Cannot send an empty message' },
  CANNOT_MESSAGE_USER: { status: 403, code: 50007, message: 'Cannot send messages to this user' },
  MISSING_PERMISSIONS: { status: 403, code: 50013, message: 'Missing Permissions' },
  INVALID_BOT_TOKEN: { status: 401, code: 50014, message: 'Invalid authentication token' },
  WRONG_CHANNEL_TYPE: { status: 400, code: 50024, message: 'Cannot execute action on this channel type' },
  INVALID_ACCESS_TOKEN: { status: 401, code: 50025, message: 'Invalid OAuth2 access token' },
  /** The same code, refused as a 403 where an external provider's token is not accepted (provisional accounts). */
  INVALID_EXTERNAL_TOKEN: { status: 403, code: 50025, message: 'Invalid OAuth2 access token' },
  MISSING_SCOPE: { status: 403, code: 50026, message: 'Missing required OAuth2 scope: {scope}' },
  INVALID_WEBHOOK_TOKEN: { status: 401, code: 50027, message: 'Invalid Webhook Token' },
  OLD_BULK_DELETE: {
    status: 400,
    code: 50034,
    message: 'You can only bulk delete messages that are under 14 days old.',
  },
  INVALID_FORM_BODY: { status: 400, code: 50035, message: 'Invalid Form Body' },
  INVALID_API_VERSION: { status: 400, code: 50041, message: 'Invalid API version' },
  INVALID_JSON: { status: 400, code: 50109, message: 'The request body contains invalid JSON.' },
  INVALID_USER_TYPE: { status: 400, code: 50229, message: 'Invalid user type' },
  ENTRY_POINT_IN_BULK: {
    status: 400,
    code: 50240,
    message:
      "You cannot remove this app's Entry Point command in a bulk update operation. " +
      'Please include your Entry Point command in your update request or delete it separately.',
  },
  // 8xxxx: relationships and game invites
  FRIEND_REQUEST_BLOCKED: { status: 400, code: 80000, message: 'Friend request blocked' },
  CANNOT_FRIEND_SELF: { status: 400, code: 80001, message: 'Cannot send friend request to self' },
  UNKNOWN_USERNAME: { status: 404, code: 80004, message: 'No users with that username' },
  ALREADY_FRIENDS: { status: 400, code: 80007, message: 'You are already friends with that user' },
  PROVISIONAL_NO_PLATFORM_AXIS: {
    status: 400,
    code: 80011,
    message: 'Provisional accounts have no platform relationships',
  },
  INVALID_RELATIONSHIP_TRANSITION: { status: 400, code: 80012, message: 'Invalid relationship transition' },
  ACTIVITY_NOT_JOINABLE: { status: 400, code: 80020, message: 'The activity cannot be joined' },
  GAME_INVITE_INVALID: { status: 400, code: 80021, message: 'The invite is no longer valid' },
  // 16xxxx: message references
  REPLY_WITHOUT_HISTORY: {
    status: 400,
    code: 160002,
    message: 'Cannot reply without permission to read message history',
  },
  CANNOT_FORWARD: { status: 403, code: 160014, message: 'You cannot forward a message whose content you cannot read' },
  // 200000: AutoMod
  BLOCKED_BY_AUTOMOD: { status: 400, code: 200000, message: 'Message was blocked by automatic moderation' },
  // 53xxxx: provisional accounts (PROTOCOL.md §5 says when each is sent)
  PROVISIONAL_NOT_ENABLED: {
    status: 400,
    code: 530000,
    message: 'Application is not enabled for provisional accounts',
  },
  EXPIRED_ID_TOKEN: { status: 400, code: 530001, message: 'Expired ID token' },
  OIDC_ISSUER_MISMATCH: { status: 400, code: 530002, message: 'OIDC issuer mismatch' },
  OIDC_AUDIENCE_MISMATCH: { status: 400, code: 530003, message: 'OIDC audience mismatch' },
  ID_TOKEN_TOO_OLD: { status: 400, code: 530004, message: 'ID token was issued more than one week ago' },
  USERNAME_GENERATION_FAILED: {
    status: 400,
    code: 530006,
    message: 'Failed to generate a unique username. Please retry.',
  },
  INVALID_CLIENT_SECRET: { status: 400, code: 530007, message: 'Invalid client secret' },
  OIDC_DISCOVERY_NOT_FOUND: { status: 400, code: 530008, message: 'OIDC discovery document not found' },
  OIDC_JWKS_NOT_FOUND: { status: 400, code: 530009, message: 'OIDC JWKS not found' },
  IDENTITY_IS_FULL_ACCOUNT: {
    status: 400,
    code: 530010,
    message: 'This external identity is linked to a non-provisional account; use OAuth2',
  },
  MERGE_SOURCE_NOT_PROVISIONAL: { status: 400, code: 530014, message: 'Merge source account is not provisional' },
  MERGE_DESTINATION_PROVISIONAL: { status: 400, code: 530016, message: 'Merge destination account is provisional' },
  MERGE_SOURCE_BANNED: { status: 400, code: 530017, message: 'Merge source account is restricted by a ban' },
  INVALID_OIDC_JWT: { status: 400, code: 530020, message: 'Invalid OIDC JWT: {reason}' },
  /** A lobby action a provisional account may not take before it is merged (ours, in the provisional family). */
  MERGE_REQUIRED: {
    status: 403,
    code: 530020,
    message: 'Provisional accounts must be merged into a full account first',
  },
  ALREADY_HAS_IDENTITY: {
    status: 400,
    code: 530023,
    message: 'User already has an external identity for this application',
  },
  OIDC_MISSING_KID: { status: 400, code: 530027, message: 'OIDC token is missing the kid header' },
} as const satisfies Record<string, { status: number; code: number; message: string }>;

export type PublishedErrorName = keyof typeof PUBLISHED_ERRORS;

/**
 * The code and message of an entry, `{name}` placeholders filled (for answers that are not HTTP, e.g. a gateway op).
 */
export function publishedRefusal(
  name: PublishedErrorName,
  values: Record<string, string | number> = {},
): { code: number; message: string } {
  const entry = PUBLISHED_ERRORS[name];
  const message = entry.message.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
  return { code: entry.code, message };
}

/** The ApiError of an entry; `headers` for answers that carry one (Retry-After of slowmode). */
export function publishedError(
  name: PublishedErrorName,
  values: Record<string, string | number> = {},
  headers?: Record<string, string>,
): ApiError {
  const { code, message } = publishedRefusal(name, values);
  return new ApiError(PUBLISHED_ERRORS[name].status, code, message, undefined, headers);
}
