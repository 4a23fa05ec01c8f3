/**
 * The C++ example (native/tests/examples/provisional_login.cpp, svcpp.hpp only) against the real platform over
 * TLS: a provisional login that reaches Ready.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';

const run = promisify(execFile);
const example = join(import.meta.dirname, '../../build/Release/svcpp_example_provisional_login');

describe('C++ example: provisional login through svcpp.hpp', () => {
  let e2e: E2EPlatform;
  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(async () => {
    await e2e.close();
  });

  it('is built by the native build', () => {
    expect(existsSync(example)).toBe(true);
  });

  it('logs in and reaches Ready as the provisional user', async () => {
    const token = await provisionalToken(e2e, 'cpp-example-player', 'Cpp Player');
    const me = await e2e.server.createProvisionalToken({ externalUserId: 'cpp-example-player' });
    expect(me.accessToken).toBeTypeOf('string');
    const { stdout, stderr } = await run(
      example,
      [e2e.apiBase, e2e.webBase, e2e.caFile, e2e.platform.devApp.id, token],
      { timeout: 30_000 },
    );
    expect(stdout).toMatch(/^ready \d+ cpp_player_[0-9a-f]{6}\n$/);
    expect(stderr).toMatch(/status Ready/);
    expect(stderr).not.toContain(token); // the SDK never logs tokens
  });
});
