/** The evaluation of command permissions (PROTOCOL.md §17.9), unit by unit: which overwrite decides. */
import { describe, expect, it } from 'vitest';
import { allChannelsId, mayUseCommand } from '../../src/commands/permission-rules.js';
import type { CommandPermissionRecord } from '../../src/store/interaction-types.js';

const GUILD = '1000';
const subject = { guildId: GUILD, channelId: '2000', userId: '3000', roleIds: ['4001', '4002'], guildPermissions: 0n };
const role = (id: string, permission: boolean): CommandPermissionRecord => ({ id, type: 1, permission });
const user = (id: string, permission: boolean): CommandPermissionRecord => ({ id, type: 2, permission });
const channel = (id: string, permission: boolean): CommandPermissionRecord => ({ id, type: 3, permission });
const levels = (command: CommandPermissionRecord[], application: CommandPermissionRecord[] = []) => ({
  command,
  application,
});

describe('mayUseCommand', () => {
  it('no overwrite: default_member_permissions decides (null → everyone, "0" → administrators, bits → all of them)', () => {
    expect(mayUseCommand(subject, levels([]), null)).toBe(true);
    expect(mayUseCommand(subject, levels([]), '0')).toBe(false);
    expect(mayUseCommand({ ...subject, guildPermissions: 1n << 3n }, levels([]), '0')).toBe(true);
    expect(
      mayUseCommand({ ...subject, guildPermissions: 1n << 5n }, levels([]), String((1n << 5n) | (1n << 28n))),
    ).toBe(false);
    expect(
      mayUseCommand(
        { ...subject, guildPermissions: (1n << 5n) | (1n << 28n) },
        levels([]),
        String((1n << 5n) | (1n << 28n)),
      ),
    ).toBe(true);
  });

  it('the user overwrite beats role overwrites, one allowing role beats a denying one, roles beat @everyone', () => {
    expect(mayUseCommand(subject, levels([user('3000', false), role('4001', true)]), null)).toBe(false);
    expect(mayUseCommand(subject, levels([role('4001', false), role('4002', true)]), '8')).toBe(true);
    expect(mayUseCommand(subject, levels([role(GUILD, false), role('4001', true)]), null)).toBe(true);
    expect(mayUseCommand(subject, levels([role(GUILD, false)]), null)).toBe(false);
    expect(mayUseCommand(subject, levels([role('9999', true)]), '8')).toBe(false);
  });

  it('command-level overwrites beat application-level ones; application-level apply when the command has none', () => {
    expect(mayUseCommand(subject, levels([role(GUILD, true)], [role(GUILD, false)]), null)).toBe(true);
    expect(mayUseCommand(subject, levels([], [role(GUILD, false)]), null)).toBe(false);
  });

  it('channels: the channel overwrite, else "all channels" (guild id − 1); a denied channel refuses even an allowed user', () => {
    expect(allChannelsId(GUILD)).toBe('999');
    expect(mayUseCommand(subject, levels([channel('999', false)]), null)).toBe(false);
    expect(mayUseCommand(subject, levels([channel('999', false), channel('2000', true)]), null)).toBe(true);
    expect(mayUseCommand(subject, levels([channel('2000', false), user('3000', true)]), null)).toBe(false);
    expect(mayUseCommand(subject, levels([], [channel('2000', false)]), null)).toBe(false);
  });
});
