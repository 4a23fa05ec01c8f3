import { publishedError } from '../http/published-errors.js';

/** Error codes of the social layer (PROTOCOL.md §10). */
export const SocialErrors = {
  requestBlocked: () => publishedError('FRIEND_REQUEST_BLOCKED'),
  cannotFriendSelf: () => publishedError('CANNOT_FRIEND_SELF'),
  unknownUsername: () => publishedError('UNKNOWN_USERNAME'),
  alreadyFriends: () => publishedError('ALREADY_FRIENDS'),
  provisionalNoPlatformAxis: () => publishedError('PROVISIONAL_NO_PLATFORM_AXIS'),
  invalidTransition: () => publishedError('INVALID_RELATIONSHIP_TRANSITION'),
  tooManyFriends: (limit: number) => publishedError('MAX_FRIENDS', { limit }),
  notJoinable: () => publishedError('ACTIVITY_NOT_JOINABLE'),
  inviteInvalid: () => publishedError('GAME_INVITE_INVALID'),
  cannotMessage: () => publishedError('CANNOT_MESSAGE_USER'),
  notAuthor: () => publishedError('CANNOT_EDIT_OTHERS'),
  unknownMessage: () => publishedError('UNKNOWN_MESSAGE'),
} as const;
