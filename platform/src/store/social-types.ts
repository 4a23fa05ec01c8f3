/** Storage records and repositories of the social layer (PROTOCOL.md §10). */

export type RelationshipAxis = 'platform' | 'game';

/** Relationship types (platform/PROTOCOL.md §10.1); the game axis uses 1, 3 and 4 only. */
export const RelationshipType = {
  None: 0,
  Friend: 1,
  Blocked: 2,
  PendingIncoming: 3,
  PendingOutgoing: 4,
} as const;

/**
 * One user's view of one axis towards another user. A friendship or a pending request is two rows (one per side);
 * a block is one row on the blocker's side. `applicationId` is '' on the platform axis.
 */
export interface RelationshipRecord {
  userId: string;
  otherId: string;
  axis: RelationshipAxis;
  applicationId: string;
  type: number;
  isSpamRequest: boolean;
  since: number;
}

export interface RelationshipRepository {
  get(userId: string, otherId: string, axis: RelationshipAxis, applicationId: string): RelationshipRecord | undefined;
  put(record: RelationshipRecord): void;
  delete(userId: string, otherId: string, axis: RelationshipAxis, applicationId: string): void;
  /** Every row from `userId` to `otherId` (both axes, every application). */
  between(userId: string, otherId: string): RelationshipRecord[];
  /** The user's platform rows and game rows of one application. */
  listForUser(userId: string, applicationId: string): RelationshipRecord[];
  /** Rows of this type on any axis (every application). */
  listOfType(userId: string, type: number): RelationshipRecord[];
  countPlatformFriends(userId: string): number;
  isSpammer(userId: string): boolean;
  setSpammer(userId: string, spammer: boolean): void;
  /** Records one friend request sent at `at`, dropping entries older than `pruneBefore`. */
  logRequest(userId: string, at: number, pruneBefore: number): void;
  countRequestsSince(userId: string, since: number): number;
  /** Merge: rows of `fromUserId` (both directions) move to `toUserId`; rows `toUserId` already has win. */
  moveAll(fromUserId: string, toUserId: string): void;
}

export interface InviteRecord {
  /** 1 join, 5 join request. */
  type: number;
  /** Whose activity holds the party: the sender (join) or the recipient (join request). */
  partyOwnerId: string;
  partyId: string;
  coverImage: string | null;
  expiresAt: number;
  valid: boolean;
}

export interface DmMessageRecord {
  id: string;
  applicationId: string;
  authorId: string;
  recipientId: string;
  content: string;
  metadata: Record<string, string>;
  moderationMetadata: Record<string, string>;
  /** 1 persistent DM, 18 ephemeral DM. */
  channelType: 1 | 18;
  /** The shared channel id of a persistent DM; null for ephemeral ones (each side sees the other's id). */
  channelId: string | null;
  createdAt: number;
  editedAt: number | null;
  /** Set on game invites (DM messages with an activity part). */
  invite: InviteRecord | null;
}

export interface DmQuery {
  userId: string;
  otherId: string;
  applicationIds: string[];
  since: number;
  before?: string;
  limit: number;
}

export interface DmSummary {
  otherId: string;
  lastMessageId: string;
}

export interface DmRepository {
  insert(message: DmMessageRecord): void;
  get(id: string): DmMessageRecord | undefined;
  update(message: DmMessageRecord): void;
  delete(id: string): void;
  /** Ordinary messages (not invites) between the two users, newest first. */
  history(query: DmQuery): DmMessageRecord[];
  /** One entry per partner with an ordinary message since `since`, newest conversation first. */
  summaries(userId: string, applicationIds: string[], since: number): DmSummary[];
  /** The persistent channel of a pair, created with `newId` on first use. */
  channelId(userA: string, userB: string, newId: string): string;
  /** Valid invites whose party belongs to `ownerId` in the application. */
  validInvitesOfPartyOwner(ownerId: string, applicationId: string): DmMessageRecord[];
  /** Valid invites with `expiresAt <= now`. */
  expiredValidInvites(now: number): DmMessageRecord[];
  nextInviteExpiry(): number | undefined;
  /** Merge: messages and channels of `fromUserId` move to `toUserId`; messages between the two are dropped. */
  moveAll(fromUserId: string, toUserId: string): void;
}
