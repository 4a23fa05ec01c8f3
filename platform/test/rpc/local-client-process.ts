/**
 * The standalone local client as a test drives it: a separate process started with the real CLI
 * (`node platform/bin/svcpp-platform.mjs rpc --platform <url> --login <user> …`), acting as the desktop user through
 * its stdin/stdout line protocol (PROTOCOL.md §12.8). Shared by the platform's tests and the SDK's end-to-end tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/svcpp-platform.mjs', import.meta.url));

export interface LocalClientOptions {
  platformUrl: string;
  login: string;
  /** Signed in at start (the start fails on bad credentials). */
  signInApp: string;
  socketDir: string;
  autoApprove?: boolean;
  /**
   * The CA of a platform serving HTTPS with a self-signed certificate (trusted as a user would: NODE_EXTRA_CA_CERTS).
   */
  caFile?: string;
}

type Line = Record<string, unknown>;

export class LocalClientProcess {
  /** The socket path it listens on (`{socketDir}/discord-ipc-{n}`). */
  path = '';
  private readonly lines: Line[] = [];
  private readonly waiters: Array<() => void> = [];
  private stderr = '';
  private readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcess) {
    let buffer = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const text = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (text.startsWith('{')) this.lines.push(JSON.parse(text) as Line);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        resolve(code);
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  /** Starts the process and waits until it listens. */
  static async start(options: LocalClientOptions): Promise<LocalClientProcess> {
    const args = [
      CLI,
      'rpc',
      '--platform',
      options.platformUrl,
      '--login',
      options.login,
      '--sign-in-app',
      options.signInApp,
      '--rpc-dir',
      options.socketDir,
    ];
    if (options.autoApprove) args.push('--auto-approve');
    const process_ = new LocalClientProcess(
      spawn(process.execPath, args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: {
          ...process.env,
          SVCPP_LOG_LEVEL: 'warn',
          ...(options.caFile && { NODE_EXTRA_CA_CERTS: options.caFile }),
        },
      }),
    );
    const listening = await process_.next((line) => line.event === 'listening');
    process_.path = String(listening.path);
    return process_;
  }

  /** The first line (from the start) matching, waiting for it; fails if the process exits first. */
  async next(match: (line: Line) => boolean, from = 0): Promise<Line> {
    for (;;) {
      const found = this.lines.slice(from).find(match);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`the local client exited: ${this.stderr}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** What the process wrote to stderr (its log). */
  get log(): string {
    return this.stderr;
  }

  /** Sends a desktop-UI command and returns its answer line. */
  async command(line: string): Promise<Line> {
    const from = this.lines.length;
    const name = line.split(' ')[0];
    this.child.stdin!.write(`${line}\n`);
    return this.next((answer) => answer.command === name, from);
  }

  /** Ends the process the hard way (as a crash would: no goodbye to games, the socket file left behind). */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Ends the process as Ctrl-C would; resolves with its exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGINT');
    return this.exited;
  }
}
