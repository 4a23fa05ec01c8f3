/**
 * `svcpp/server` (lib/server.ts) loads no native code: imported in a Node process where loading an addon and
 * importing the loader, the bindings, koffi or node-gyp-build all throw, it works; the package root does not.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const lib = (name: string) => new URL(`../lib/${name}`, import.meta.url).href;

/** Runs `script` (an ES module) with native code made impossible; returns its exit status and output. */
function runWithoutNative(script: string) {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', fixture('deny-native.mjs'), '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return { status: child.status, stdout: child.stdout.trim(), stderr: child.stderr };
}

it('imports the server entry and uses its helpers with native code impossible', () => {
  const result = runWithoutNative(`
    const { SvcppServer, WebhookReceiver } = await import(${JSON.stringify(lib('server.ts'))});
    const server = new SvcppServer({ apiBase: 'https://127.0.0.1:1/api/v10', botToken: 'bot', applicationId: '5' });
    const receiver = new WebhookReceiver({ publicKey: 'ab'.repeat(32) });
    console.log(typeof server.applicationId, server.applicationId, receiver.constructor.name);
  `);
  expect(result.stderr).toBe('');
  expect(result).toMatchObject({ status: 0, stdout: 'bigint 5n WebhookReceiver' });
});

it('the guard works: importing the package root (which loads the native backends) fails in the same process', () => {
  const result = runWithoutNative(`await import(${JSON.stringify(lib('index.ts'))});`);
  expect(result.status).not.toBe(0);
  expect(result.stderr).toMatch(/native module imported: .*(lib\/loader\.ts|bindings\/)/);
});
