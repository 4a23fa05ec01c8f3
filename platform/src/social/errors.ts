import { ApiError } from '../http/errors.js';

/** Error codes of the social layer (PROTOCOL.md §10). */
export const SocialErrors = {
  requestBlocked: () => new ApiError(400, 80000, 'Friend request blocked'),
  cannotFriendSelf: () => new ApiError(400, 80001, 'Cannot send friend request to self'),
  unknownUsername: () => new ApiError(404, 80004, 'No users with that username'),
  alreadyFriends: () => new ApiError(400, 80007, 'You are already friends with that user'),
  provisionalNoPlatformAxis: () => new ApiError(400, 80011, 'Provisional accounts have no platform relationships'),
  invalidTransition: () => new ApiError(400, 80012, 'Invalid relationship transition'),
  tooManyFriends: (limit: number) => new ApiError(400, 30014, `Maximum number of friends reached (${limit})`),
  notJoinable: () => new ApiError(400, 80020, 'The activity cannot be joined'),
  inviteInvalid: () => new ApiError(400, 80021, 'The invite is no longer valid'),
  cannotMessage: () => new ApiError(403, 50007, 'Cannot send messages to this user'),
  notAuthor: () => new ApiError(403, 50005, 'Cannot edit a message authored by another user'),
  unknownMessage: () => new ApiError(404, 10008, 'Unknown Message'),
} as const;
