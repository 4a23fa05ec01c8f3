/**
 * The CLI's log lines (README "Logs"): pretty lines on a terminal, pino JSON when stdout is piped, and either one
 * when asked with --log-format / SVCPP_LOG_FORMAT. The terminal case runs the CLI under util-linux `script`, which
 * gives it a real pseudo-terminal.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prettyLine } from '../../src/log-format.js';
import { testDatabase } from '../support/database.js';
import { tempDir } from '../support/platform.js';

const BIN = fileURLToPath(new URL('../../bin/svcpp-platform.mjs', import.meta.url));
const LISTENING = 'svcpp platform listening';
const PRETTY_LISTENING = /^\d\d:\d\d:\d\d\.\d{3} (\x1b\[\d+m)?INFO (\x1b\[0m)? svcpp platform listening {2}\S+=/m;

/** Runs the CLI (argv), or `script` around it with `onTerminal`, until its output shows `until`; then stops it. */
async function outputUntil(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; onTerminal?: boolean; until: string },
): Promise<string> {
  const argv = [BIN, '--port', '0', '--db', testDatabase(join(tempDir(), 'platform.db')), ...args];
  const quoted = [process.execPath, ...argv].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = options.onTerminal
    ? spawn('script', ['-qfec', quoted, '/dev/null'], {
        env: { ...process.env, ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, argv, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let done = false;
  void exited.then(() => (done = true));
  while (!output.includes(options.until) && !done) await new Promise((resolve) => setTimeout(resolve, 20));
  // The log line and the banner come in either order: wait for both, then stop.
  while (!output.includes('public key') && !done) await new Promise((resolve) => setTimeout(resolve, 20));
  if (options.onTerminal) child.stdin!.write('\x03');
  else child.kill('SIGTERM');
  await exited;
  return output;
}

const jsonLines = (output: string) => output.split(/\r?\n/).filter((line) => line.startsWith('{"'));

describe('log format', () => {
  it('is JSON when stdout is piped and nothing was asked', async () => {
    const output = await outputUntil([], { env: { SVCPP_LOG_LEVEL: 'info', SVCPP_LOG_FORMAT: '' }, until: LISTENING });
    expect(jsonLines(output).map((line) => JSON.parse(line).msg)).toContain(LISTENING);
    expect(output).not.toMatch(PRETTY_LISTENING);
  }, 90_000);

  it('is pretty on a terminal when nothing was asked', async () => {
    const output = await outputUntil([], {
      env: { SVCPP_LOG_LEVEL: 'info', SVCPP_LOG_FORMAT: '' },
      onTerminal: true,
      until: LISTENING,
    });
    expect(output).toMatch(PRETTY_LISTENING);
    expect(jsonLines(output)).toEqual([]);
  }, 90_000);

  it('--log-format json on a terminal writes JSON', async () => {
    const output = await outputUntil(['--log-format', 'json'], {
      env: { SVCPP_LOG_LEVEL: 'info' },
      onTerminal: true,
      until: LISTENING,
    });
    expect(jsonLines(output).map((line) => JSON.parse(line).msg)).toContain(LISTENING);
    expect(output).not.toMatch(PRETTY_LISTENING);
  }, 90_000);

  it('--log-format pretty when piped writes pretty lines without colour codes', async () => {
    const output = await outputUntil(['--log-format', 'pretty'], {
      env: { SVCPP_LOG_LEVEL: 'info' },
      until: LISTENING,
    });
    expect(output).toMatch(PRETTY_LISTENING);
    expect(output).not.toContain('\x1b[');
    expect(jsonLines(output)).toEqual([]);
  }, 90_000);

  it('SVCPP_LOG_FORMAT=pretty is the same choice; the flag wins over it', async () => {
    expect(
      await outputUntil([], { env: { SVCPP_LOG_LEVEL: 'info', SVCPP_LOG_FORMAT: 'pretty' }, until: LISTENING }),
    ).toMatch(PRETTY_LISTENING);
    const output = await outputUntil(['--log-format', 'json'], {
      env: { SVCPP_LOG_LEVEL: 'info', SVCPP_LOG_FORMAT: 'pretty' },
      until: LISTENING,
    });
    expect(jsonLines(output).map((line) => JSON.parse(line).msg)).toContain(LISTENING);
  }, 90_000);

  it('refuses an unknown format', async () => {
    const child = spawn(process.execPath, [BIN, '--log-format', 'xml'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, errors }).toEqual({
      code: 2,
      errors: expect.stringContaining('invalid --log-format xml (json or pretty)'),
    });
  });
});

describe('prettyLine', () => {
  it('keeps what redaction put in the JSON, and shows an error stack under its line', () => {
    const line = JSON.stringify({
      level: 50,
      time: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
      pid: 1,
      hostname: 'h',
      msg: 'failed',
      req: { headers: { authorization: '[redacted]' } },
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
    });
    expect(prettyLine(line, false)).toBe(
      '03:04:05.006 ERROR failed  req={"headers":{"authorization":"[redacted]"}}\n    Error: boom\n        at x\n',
    );
  });

  it('passes a line that is not JSON through', () => {
    expect(prettyLine('plain text', false)).toBe('plain text\n');
  });
});
