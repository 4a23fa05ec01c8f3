/**
 * The launch command registry (PROTOCOL.md §12.6): which command starts the game of an application, so that a join
 * accepted while the game is not running can start it. Kept in memory by the local client and, on Linux, written as
 * a `.desktop` entry handling the URL scheme `discord-<application id>` (the scheme published clients register),
 * so desktop environments can open `discord-<id>://` links with the game.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function urlScheme(applicationId: string): string {
  return `discord-${applicationId}`;
}

/** How a Steam game is started: its `steam://rungameid/<id>` URL opened by the system's URL opener. */
export function steamLaunchCommand(steamAppId: number, os: NodeJS.Platform = process.platform): string {
  const url = `steam://rungameid/${steamAppId}`;
  if (os === 'win32') return `start "" ${url}`;
  return `${os === 'darwin' ? 'open' : 'xdg-open'} ${url}`;
}

export function defaultApplicationsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'applications');
}

/**
 * Desktop-entry `Exec` quoting: the command line is kept as given, the URL goes in through the `%u` field code
 * (not for a command that opens a URL of its own, such as a Steam launch: `appendUrl` false).
 */
export function desktopEntry(
  applicationId: string,
  applicationName: string,
  command: string,
  appendUrl = true,
): string {
  const name = applicationName.replace(/[\r\n]/g, ' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${name}`,
    `Exec=${command.replace(/[\r\n]/g, ' ')}${appendUrl ? ' %u' : ''}`,
    'NoDisplay=true',
    'Categories=Game;',
    `MimeType=x-scheme-handler/${urlScheme(applicationId)};`,
    '',
  ].join('\n');
}

export class LaunchRegistry {
  private readonly commands = new Map<string, { command: string; appendUrl: boolean }>();
  /** Extra environment of launched games (the local client's socket path). */
  private env: Record<string, string> = {};

  /** `applicationsDir`: where `.desktop` entries go; undefined = write none (not Linux). */
  constructor(private readonly applicationsDir: string | undefined) {}

  setEnv(env: Record<string, string>): void {
    this.env = env;
  }

  /**
   * Registers (or replaces) the command of an application; returns the `.desktop` file written, if any. `appendUrl`
   * false: the command is run as is, without the game's URL (a Steam launch opens its own).
   */
  register(applicationId: string, applicationName: string, command: string, appendUrl = true): string | undefined {
    this.commands.set(applicationId, { command, appendUrl });
    const dir = this.applicationsDir;
    if (dir === undefined) return undefined;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${urlScheme(applicationId)}.desktop`);
    writeFileSync(file, desktopEntry(applicationId, applicationName, command, appendUrl), { mode: 0o644 });
    return file;
  }

  command(applicationId: string): string | undefined {
    return this.commands.get(applicationId)?.command;
  }

  /** Forgets every registration (a restart of the local client: games register again when they reconnect). */
  clear(): void {
    this.commands.clear();
  }

  /**
   * Starts the game with its URL (`discord-<id>://`) as the last argument. The join secret is never on the command
   * line (other users can read process arguments): the game receives it as ACTIVITY_JOIN once it connects.
   */
  launch(applicationId: string): boolean {
    const registered = this.commands.get(applicationId);
    if (registered === undefined) return false;
    const { command, appendUrl } = registered;
    const url = `${urlScheme(applicationId)}://`;
    const options = { detached: true, stdio: 'ignore' as const, env: { ...process.env, ...this.env } };
    // POSIX: the URL reaches the command as "$1", never re-parsed by the shell. Windows has no /bin/sh; the URL
    // (digits and "discord-://") needs no quoting there.
    const child =
      process.platform === 'win32'
        ? spawn(appendUrl ? `${command} ${url}` : command, { ...options, shell: true })
        : spawn('/bin/sh', ['-c', appendUrl ? `${command} "$1"` : command, 'sh', url], options);
    child.on('error', () => undefined);
    child.unref();
    return true;
  }
}
