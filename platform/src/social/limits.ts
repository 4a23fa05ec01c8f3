/**
 * The social layer's limits (PROTOCOL.md §10). Defaults are the SDK's documented values; every one can be
 * overridden through `options.socialLimits` so tests can use small numbers and short durations.
 */
export interface SocialLimits {
  /** DM content length (1 … this). */
  messageContentMax: number;
  /** DM `metadata` map: keys, key length (1 … this), value length (0 … this). */
  metadataMaxKeys: number;
  metadataKeyMax: number;
  metadataValueMax: number;
  /** Moderation metadata map set by the application's bot. */
  moderationMetadataMaxKeys: number;
  moderationMetadataKeyMax: number;
  moderationMetadataValueMax: number;
  /** Platform-axis friends per user. */
  platformFriends: number;
  /** A friend request is flagged `is_spam_request` when its sender already sent this many in the window. */
  spamRequestThreshold: number;
  spamWindowSeconds: number;
  /** How far back DM history reaches (messages older than this are gone for good). */
  historySeconds: number;
  historyLimitMax: number;
  historyLimitDefault: number;
  /** Game invites expire this long after they were sent. */
  inviteValiditySeconds: number;
  /** Optional text of a game invite (0 … this). */
  inviteContentMax: number;
}

export const DEFAULT_SOCIAL_LIMITS: SocialLimits = {
  messageContentMax: 2_000,
  metadataMaxKeys: 25,
  metadataKeyMax: 1_024,
  metadataValueMax: 1_024,
  moderationMetadataMaxKeys: 5,
  moderationMetadataKeyMax: 1_024,
  moderationMetadataValueMax: 2_000,
  platformFriends: 1_000,
  spamRequestThreshold: 10,
  spamWindowSeconds: 600,
  historySeconds: 72 * 3_600,
  historyLimitMax: 200,
  historyLimitDefault: 50,
  inviteValiditySeconds: 6 * 3_600,
  inviteContentMax: 1_024,
};
