import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = fileURLToPath(new URL('../../src/oauth/oidc/signing-keys.ts', import.meta.url));

// Node 20 deadlocks (a thread blocked for good, so no test timeout can fire) when a KeyObject from
// generateKeyPairSync is exported as JWK while a GC finalizes the generation job. The stress runs in a child
// process with a small young generation, so GCs land inside exports, and a kill timeout turns a deadlock into a
// failure instead of a hung run. Before the fix it hung in most runs of this size.
const stress = `
  const { generateRsaKey } = await import(${JSON.stringify(source)});
  const { createPublicKey } = await import('node:crypto');
  let garbage = [];
  for (let i = 0; i < 400; i++) {
    const key = generateRsaKey(1024);
    for (let j = 0; j < 2000; j++) garbage.push({ j, s: 'x' + j });
    if (garbage.length > 100000) garbage = [];
    createPublicKey(key).export({ format: 'jwk' });
    key.export({ format: 'jwk' });
  }
  console.log('exported 400 keys');
`;

describe('OIDC signing key generation', () => {
  it('exports fresh keys as JWK under GC pressure without deadlocking', () => {
    const child = spawnSync(
      process.execPath,
      ['--max-semi-space-size=1', '--import', 'tsx', '--input-type=module', '-e', stress],
      {
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
    );
    expect(child.signal, 'the child was killed: a deadlock').toBeNull();
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('exported 400 keys');
  }, 90_000);
});
