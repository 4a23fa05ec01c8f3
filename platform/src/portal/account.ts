import { developerAccountSchema, type PlatformConfig } from '../config/schema.js';
import { verifyPassword } from '../crypto/passwords.js';
import { constantTimeEqual } from '../crypto/tokens.js';

/** The account name to use in development mode when the config names no developer account. */
export const DEV_MODE_USERNAME = 'developer';

/**
 * Who may sign in to the portal (PROTOCOL.md §15):
 * - the config's `developer_account` (username + scrypt password hash), when there is one;
 * - otherwise, in development mode, `developer` with this start's dev token as the password — the same secret that
 *   already unlocks every credential through GET /dev/state, so the portal grants nothing new;
 * - otherwise nobody (the login page says how to configure an account).
 */
export type DeveloperAccount =
  | { kind: 'configured'; username: string; passwordHash: string }
  | { kind: 'dev-token'; username: string; devToken: string }
  | { kind: 'none' };

export function developerAccount(
  options: { config: PlatformConfig | undefined; devMode: boolean },
  devToken: string,
): DeveloperAccount {
  const configured = options.config?.developer_account;
  if (configured !== undefined) {
    // applyConfig has validated the whole config at start-up; parsed again here for the typed output.
    const account = developerAccountSchema.parse(configured);
    return { kind: 'configured', username: account.username, passwordHash: account.password_hash };
  }
  if (options.devMode) return { kind: 'dev-token', username: DEV_MODE_USERNAME, devToken };
  return { kind: 'none' };
}

/** Checks a sign-in; the password is compared in constant time and never kept. */
export function credentialsMatch(account: DeveloperAccount, username: string, password: string): boolean {
  if (account.kind === 'none') return false;
  const secretMatches =
    account.kind === 'configured'
      ? verifyPassword(password, account.passwordHash)
      : constantTimeEqual(password, account.devToken);
  // Both checks always run, so the answer time does not tell whether the username was right.
  return constantTimeEqual(username, account.username) && secretMatches;
}
