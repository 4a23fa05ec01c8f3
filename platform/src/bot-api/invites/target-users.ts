/**
 * The target-users file of an invite (PROTOCOL.md §14.7): CSV with one user id per line, with or without the
 * `user_id` header (discord.js sends none when given an array). Invalid lines are reported by number; duplicates
 * are dropped.
 */
const SNOWFLAKE = /^\d{17,20}$/;

export interface ParsedTargetUsers {
  userIds: string[];
  errors: string[];
}

export function parseTargetUsersCsv(text: string): ParsedTargetUsers {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const userIds = new Set<string>();
  const errors: string[] = [];
  lines.forEach((raw, index) => {
    const line = raw
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .split(',')[0]!
      .trim();
    if (line === '' || (index === 0 && line.toLowerCase() === 'user_id')) return;
    if (!SNOWFLAKE.test(line)) errors.push(`Line ${index + 1}: invalid user ID - must be a valid Discord snowflake`);
    else userIds.add(line);
  });
  return { userIds: [...userIds], errors };
}

/** The CSV `GET /invites/{code}/target-users` answers with: the header line, then one id per line. */
export function targetUsersCsv(userIds: string[]): string {
  return ['user_id', ...userIds].join('\n') + '\n';
}
