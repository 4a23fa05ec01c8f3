import type { SqlDatabase } from '../sql-database.js';
import { DEFAULT_APPLICATION_PROFILE, type ApplicationRecord, type ApplicationRepository } from '../types.js';
import { bool, int, json, str, strOrNull, type Row } from './rows.js';

function fromRow(row: Row): ApplicationRecord {
  return {
    id: str(row.id),
    name: str(row.name),
    clientSecret: str(row.client_secret),
    botToken: str(row.bot_token),
    botUserId: str(row.bot_user_id),
    ownerUserId: strOrNull(row.owner_user_id),
    publicKeyHex: str(row.public_key_hex),
    privateKeyPem: str(row.private_key_pem),
    redirectUris: json(row.redirect_uris),
    publicClient: bool(row.public_client),
    webhookUrl: strOrNull(row.webhook_url),
    parentId: strOrNull(row.parent_id),
    identifyPremiumApproved: bool(row.identify_premium_approved),
    provisionalAccountsEnabled: bool(row.provisional_accounts_enabled),
    socialSdkTermsAccepted: bool(row.social_sdk_terms_accepted),
    identityProviders: json(row.identity_providers),
    coverImage: strOrNull(row.cover_image),
    flags: Number(row.flags ?? 0),
    profile:
      row.profile === null || row.profile === undefined
        ? DEFAULT_APPLICATION_PROFILE
        : { ...DEFAULT_APPLICATION_PROFILE, ...json(row.profile) },
    createdAt: Number(row.created_at),
  };
}

function toParams(app: ApplicationRecord): Row {
  return {
    id: app.id,
    name: app.name,
    client_secret: app.clientSecret,
    bot_token: app.botToken,
    bot_user_id: app.botUserId,
    owner_user_id: app.ownerUserId,
    public_key_hex: app.publicKeyHex,
    private_key_pem: app.privateKeyPem,
    redirect_uris: JSON.stringify(app.redirectUris),
    public_client: int(app.publicClient),
    webhook_url: app.webhookUrl,
    parent_id: app.parentId,
    identify_premium_approved: int(app.identifyPremiumApproved),
    provisional_accounts_enabled: int(app.provisionalAccountsEnabled),
    social_sdk_terms_accepted: int(app.socialSdkTermsAccepted),
    identity_providers: JSON.stringify(app.identityProviders),
    cover_image: app.coverImage,
    flags: app.flags,
    profile: JSON.stringify(app.profile),
    created_at: app.createdAt,
  };
}

const COLUMNS = [
  'id',
  'name',
  'client_secret',
  'bot_token',
  'bot_user_id',
  'owner_user_id',
  'public_key_hex',
  'private_key_pem',
  'redirect_uris',
  'public_client',
  'webhook_url',
  'parent_id',
  'identify_premium_approved',
  'provisional_accounts_enabled',
  'social_sdk_terms_accepted',
  'identity_providers',
  'cover_image',
  'flags',
  'profile',
  'created_at',
];

export function sqliteApplications(db: SqlDatabase): ApplicationRepository {
  const insert = db.prepare(
    `INSERT INTO applications (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`,
  );
  const update = db.prepare(
    `UPDATE applications SET ${COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE id = @id`,
  );
  const get = db.prepare('SELECT * FROM applications WHERE id = ?');
  const byName = db.prepare('SELECT * FROM applications WHERE name = ?');
  const byBotToken = db.prepare('SELECT * FROM applications WHERE bot_token = ?');
  const list = db.prepare('SELECT * FROM applications ORDER BY created_at, id');
  const one = (row: unknown) => (row ? fromRow(row as Row) : undefined);
  return {
    insert: (app) => void insert.run(toParams(app)),
    update: (app) => void update.run(toParams(app)),
    get: (id) => one(get.get(id)),
    findByName: (name) => one(byName.get(name)),
    findByBotToken: (token) => one(byBotToken.get(token)),
    list: () => (list.all() as Row[]).map(fromRow),
  };
}
