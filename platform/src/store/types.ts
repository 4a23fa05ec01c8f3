import type { BotGuildRepository } from './bot-types.js';
import type { InteractionRepository } from './interaction-types.js';
/**
 * The storage interface. Records are plain objects in camelCase; JSON wire shapes are built elsewhere.
 * The interface is synchronous on purpose: the gateway authenticates inside a socket handler and the
 * embedded database answers in microseconds. A server-database implementation would sit behind a
 * write-through cache to keep this contract.
 */
import type { LobbyRepository } from './lobby-types.js';
import type { DmRepository, RelationshipRepository } from './social-types.js';
import type { PremiumRepository } from './premium-types.js';
import type { ActivityRepository } from './activity-types.js';
import type { ReactionRepository } from './reaction-types.js';

export type ExternalAuthType =
  | 'OIDC'
  | 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN'
  | 'EPIC_ONLINE_SERVICES_ID_TOKEN'
  | 'STEAM_SESSION_TICKET'
  | 'UNITY_SERVICES_ID_TOKEN'
  | 'DISCORD_BOT_ISSUED_ACCESS_TOKEN'
  | 'APPLE_ID_TOKEN'
  | 'PLAYSTATION_NETWORK_ID_TOKEN';

export interface IdentityProviderConfig {
  /** An external_auth_type whose token is an OIDC ID token (JWT). */
  type: ExternalAuthType;
  issuer: string;
  /** The audience the ID tokens must carry. */
  clientId: string;
}

export interface ApplicationRecord {
  id: string;
  name: string;
  clientSecret: string;
  botToken: string;
  botUserId: string;
  ownerUserId: string | null;
  /** Ed25519 public key, 32 bytes as hex; webhooks are signed with the matching private key. */
  publicKeyHex: string;
  privateKeyPem: string;
  redirectUris: string[];
  /** May use the token, partner-sdk and child-token endpoints without a client secret (PKCE instead). */
  publicClient: boolean;
  webhookUrl: string | null;
  parentId: string | null;
  identifyPremiumApproved: boolean;
  provisionalAccountsEnabled: boolean;
  socialSdkTermsAccepted: boolean;
  identityProviders: IdentityProviderConfig[];
  /** Cover image of game invites whose activity sets none (PROTOCOL.md §10.3). */
  coverImage: string | null;
  /** Application flags (privileged-intent grants among them, PROTOCOL.md §14). */
  flags: number;
  /** The published fields an application edits with `PATCH /applications/@me` (PROTOCOL.md §14.1). */
  profile: ApplicationProfile;
  createdAt: number;
}

/** Install link settings: the scopes and the bot role's permissions (a decimal string) of an install. */
export interface InstallParams {
  scopes: string[];
  permissions: string;
}

/** Published editable application fields kept by the platform (PROTOCOL.md §14.1). */
export interface ApplicationProfile {
  description: string;
  /** Content hash of the icon image (there is no CDN), or null. */
  icon: string | null;
  tags: string[];
  customInstallUrl: string | null;
  installParams: InstallParams | null;
  /** Per installation context ("0" guild, "1" user): its default install params, or null. */
  integrationTypesConfig: { '0': InstallParams | null; '1': InstallParams | null };
  roleConnectionsVerificationUrl: string | null;
  /** 1 DISABLED or 2 ENABLED; null = follows the webhook URL (enabled when one is set), as before the field existed. */
  eventWebhooksStatus: 1 | 2 | null;
  /** The webhook event types delivered; null = every type (the default of an application that never chose). */
  eventWebhooksTypes: string[] | null;
}

/** The profile of an application that never edited one. */
export const DEFAULT_APPLICATION_PROFILE: ApplicationProfile = {
  description: '',
  icon: null,
  tags: [],
  customInstallUrl: null,
  installParams: null,
  integrationTypesConfig: { '0': null, '1': null },
  roleConnectionsVerificationUrl: null,
  eventWebhooksStatus: null,
  eventWebhooksTypes: null,
};

/** Milliseconds value stored in `bannedUntil` for a permanent ban. */
export const PERMANENT_BAN = 8_640_000_000_000_000;

export interface PrimaryGuildRecord {
  guildId: string;
}

export interface UserRecord {
  id: string;
  username: string;
  globalName: string | null;
  avatar: string | null;
  banner: string | null;
  email: string | null;
  verified: boolean;
  premiumType: number;
  locale: string;
  bot: boolean;
  isProvisional: boolean;
  /** For provisional accounts: the application that created them. */
  provisionalApplicationId: string | null;
  /** For ban-created provisional accounts: the banned account they stand in for (merges fail while banned). */
  restrictedByUserId: string | null;
  bannedUntil: number | null;
  primaryGuildId: string | null;
  passwordHash: string | null;
  createdAt: number;
}

export interface ExternalIdentityRecord {
  applicationId: string;
  authType: ExternalAuthType;
  /** The issuer for ID-token identities; '' for bot-issued identities. */
  issuer: string;
  externalId: string;
  userId: string;
  createdAt: number;
}

export type TokenKind = 'access' | 'refresh';
export type TokenOrigin = 'oauth' | 'client_credentials' | 'provisional' | 'child';

export interface TokenRecord {
  hash: string;
  kind: TokenKind;
  /** An access token and its refresh token share a pair id; rotation and revocation work per pair. */
  pairId: string;
  applicationId: string;
  userId: string;
  scopes: string[];
  origin: TokenOrigin;
  /** Child tokens point at the parent's pair; revoking the parent revokes them. */
  parentPairId: string | null;
  expiresAt: number;
  createdAt: number;
}

export interface AuthorizationCodeRecord {
  hash: string;
  applicationId: string;
  userId: string;
  scopes: string[];
  redirectUri: string | null;
  codeChallenge: string | null;
  nonce: string | null;
  authTime: number;
  expiresAt: number;
  usedAt: number | null;
  /** Pair issued when the code was redeemed; revoked if the code is replayed (RFC 6749 §4.1.2). */
  issuedPairId: string | null;
}

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

export interface DeviceCodeRecord {
  hash: string;
  userCode: string;
  applicationId: string;
  scopes: string[];
  status: DeviceCodeStatus;
  userId: string | null;
  intervalSeconds: number;
  lastPollAt: number | null;
  expiresAt: number;
  createdAt: number;
}

export interface GrantRecord {
  applicationId: string;
  userId: string;
  scopes: string[];
  createdAt: number;
}

export interface GuildRecord {
  id: string;
  name: string;
  icon: string | null;
  banner: string | null;
  ownerId: string | null;
  /** Guild tag (1–4 characters) shown as `primary_guild.tag` of members who chose this guild. */
  tag: string | null;
  features: string[];
}

export interface ChannelRecord {
  id: string;
  guildId: string;
  name: string;
  type: number;
  position: number;
  parentId: string | null;
}

export interface ConnectionRecord {
  userId: string;
  type: string;
  id: string;
  name: string;
  verified: boolean;
  visibility: number;
  /** Set for connections created by a game publisher; those are never returned (spec). */
  publisherApplicationId: string | null;
}

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

export interface OutboxRecord {
  id: string;
  applicationId: string;
  /** The exact bytes that are signed and sent. */
  body: string;
  attempts: number;
  nextAttemptAt: number;
  status: OutboxStatus;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
  /** Where to send it instead of the application's webhook URL (a lobby's override_event_webhooks_url). */
  targetUrl?: string | null;
}

export interface SigningKeyRecord {
  kid: string;
  alg: string;
  privateJwk: string;
  publicJwk: string;
  createdAt: number;
}

export interface ApplicationRepository {
  insert(app: ApplicationRecord): void;
  update(app: ApplicationRecord): void;
  get(id: string): ApplicationRecord | undefined;
  findByName(name: string): ApplicationRecord | undefined;
  findByBotToken(token: string): ApplicationRecord | undefined;
  list(): ApplicationRecord[];
}

export interface UserRepository {
  insert(user: UserRecord): void;
  update(user: UserRecord): void;
  get(id: string): UserRecord | undefined;
  findByUsername(username: string): UserRecord | undefined;
  delete(id: string): void;
  list(): UserRecord[];
}

export interface ExternalIdentityRepository {
  insert(identity: ExternalIdentityRecord): void;
  find(
    applicationId: string,
    authType: ExternalAuthType,
    issuer: string,
    externalId: string,
  ): ExternalIdentityRecord | undefined;
  listForUser(userId: string): ExternalIdentityRecord[];
  /** Re-points one identity at another account (merge, unmerge, ban). */
  moveTo(identity: ExternalIdentityRecord, userId: string): void;
}

export interface TokenRepository {
  insert(token: TokenRecord): void;
  findByHash(hash: string): TokenRecord | undefined;
  /** Deletes a pair and its child tokens. */
  deletePair(pairId: string): void;
  /** Deletes every token of the user for the application (and their children); returns how many pairs went. */
  deleteForUserAndApp(userId: string, applicationId: string): number;
  deleteForUser(userId: string): number;
  countForUser(userId: string): number;
}

export interface AuthorizationCodeRepository {
  insert(code: AuthorizationCodeRecord): void;
  findByHash(hash: string): AuthorizationCodeRecord | undefined;
  markUsed(hash: string, usedAt: number, issuedPairId: string): void;
}

export interface DeviceCodeRepository {
  insert(code: DeviceCodeRecord): void;
  findByHash(hash: string): DeviceCodeRecord | undefined;
  findByUserCode(userCode: string): DeviceCodeRecord | undefined;
  update(code: DeviceCodeRecord): void;
}

export interface GrantRepository {
  upsert(grant: GrantRecord): void;
  get(applicationId: string, userId: string): GrantRecord | undefined;
  delete(applicationId: string, userId: string): void;
  listForUser(userId: string): GrantRecord[];
  /** Users who authorized the application. */
  countForApplication(applicationId: string): number;
}

export interface GuildRepository {
  upsert(guild: GuildRecord): void;
  get(id: string): GuildRecord | undefined;
  findByName(name: string): GuildRecord | undefined;
  addMember(guildId: string, userId: string): void;
  isMember(guildId: string, userId: string): boolean;
  countMembers(guildId: string): number;
  listForUser(userId: string): GuildRecord[];
  /** Moves memberships (merge); memberships the target already has are kept once. */
  moveMemberships(fromUserId: string, toUserId: string): void;
  upsertChannel(channel: ChannelRecord): void;
  /** Removes the channel; channels under it (a category's) are left without a parent. */
  deleteChannel(id: string): void;
  findChannelByName(guildId: string, name: string): ChannelRecord | undefined;
  getChannel(id: string): ChannelRecord | undefined;
  listChannels(guildId: string): ChannelRecord[];
  list(): GuildRecord[];
}

export interface ConnectionRepository {
  upsert(connection: ConnectionRecord): void;
  listForUser(userId: string): ConnectionRecord[];
  moveAll(fromUserId: string, toUserId: string): void;
}

export interface OutboxRepository {
  insert(entry: OutboxRecord): void;
  /**
   * Claims up to `limit` pending entries due at `now`, oldest first: in one atomic statement their next attempt moves
   * to `leaseUntil`, so no other claimant (another platform node on the same database) sees them as due until the
   * lease runs out. The claimant then records the attempt's outcome with `update`. A node that dies mid-delivery
   * leaves its entries to be claimed again after the lease, as a restart would.
   */
  claimDue(now: number, limit: number, leaseUntil: number): OutboxRecord[];
  nextDueAt(): number | undefined;
  update(entry: OutboxRecord): void;
  get(id: string): OutboxRecord | undefined;
  list(): OutboxRecord[];
}

export interface SigningKeyRepository {
  insert(key: SigningKeyRecord): void;
  list(): SigningKeyRecord[];
}

export interface MetaRepository {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export interface Store {
  applications: ApplicationRepository;
  lobbies: LobbyRepository;
  relationships: RelationshipRepository;
  directMessages: DmRepository;
  users: UserRepository;
  identities: ExternalIdentityRepository;
  tokens: TokenRepository;
  authorizationCodes: AuthorizationCodeRepository;
  deviceCodes: DeviceCodeRepository;
  grants: GrantRepository;
  guilds: GuildRepository;
  /** Roles, member profiles, channel settings, messages, pins, invites and the audit log (PROTOCOL.md §14). */
  botGuilds: BotGuildRepository;
  /** Message reactions (PROTOCOL.md §14.4 "Reactions"). */
  reactions: ReactionRepository;
  /** Application commands, interaction tokens, ephemeral replies, interactions endpoint settings (PROTOCOL.md §17). */
  interactions: InteractionRepository;
  /** Activity instances and the activity proxy's URL mappings (PROTOCOL.md §18). */
  activities: ActivityRepository;
  connections: ConnectionRepository;
  /** SKUs, entitlements and subscriptions (PROTOCOL.md "Premium apps"). */
  premium: PremiumRepository;
  outbox: OutboxRepository;
  signingKeys: SigningKeyRepository;
  meta: MetaRepository;
  /** Runs fn atomically; an exception rolls everything back. fn must be synchronous. */
  transaction<T>(fn: () => T): T;
  close(): void;
}
