import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/svcpp-platform.mjs', import.meta.url));

export interface CliPlatform {
  child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** The exit code once the process ended. */
  exited: Promise<number | null>;
}

/** `svcpp-platform <args>` in a child process, resolved once its banner is printed (rejected if it exits first). */
export async function startCli(args: string[]): Promise<CliPlatform> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, SVCPP_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  // The banner ends with the development application's public key.
  while (!output.includes('public key')) {
    if (ended) throw new Error(`the platform exited early:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, output: () => output, exited };
}
