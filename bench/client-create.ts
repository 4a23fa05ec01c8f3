// Cost of creating a Client on the host's thread (an Electron UI thread, a game server's event loop): the first one of
// the process (it loads the library), then the mean of many more through each backend, without and with a CA file.
// The trust store is not decoded here: once per process, on the I/O thread before the first TLS connection, shared by
// the clients of one trust (native/SEMANTICS.md "Trust stores").
// No network: the clients are created and closed without connecting. Prints figures; asserts nothing.
//   node --import tsx bench/client-create.ts [--smoke]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../lib/index.js';
import { generateSelfSignedCertificate } from '../platform/src/crypto/tls.js';

const smoke = process.argv.includes('--smoke');
const COUNT = smoke ? 10 : 200;
const BASES = { apiBase: 'https://127.0.0.1:1/api/v10', webBase: 'https://127.0.0.1:1' };

/** Milliseconds to create `count` clients with these options (they are closed afterwards, not timed). */
async function create(count: number, options: Partial<ConstructorParameters<typeof Client>[0]>): Promise<number> {
  const clients: Client[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) clients.push(new Client({ ...BASES, ...options }));
  const elapsed = performance.now() - start;
  await Promise.all(clients.map((client) => client.close()));
  return elapsed;
}

// The CA file: a certificate like the local platform's (its own trust anchor).
const dir = mkdtempSync(join(tmpdir(), 'svcpp-bench-ca-'));
const caFile = join(dir, 'ca.pem');
try {
  writeFileSync(caFile, (await generateSelfSignedCertificate()).cert);
  const first = await create(1, { backend: 'napi' });
  console.log(`client creation (no network; ${COUNT} clients per row after the first)`);
  console.log(`  first client of the process (napi)   ${first.toFixed(2)} ms`);
  for (const backend of ['napi', 'koffi'] as const) {
    for (const withCa of [false, true]) {
      const ms = await create(COUNT, { backend, ...(withCa ? { caFile } : {}) });
      const roots = withCa ? 'with a CA file   ' : 'system roots only';
      console.log(`  ${backend.padEnd(5)} ${roots}       ${(ms / COUNT).toFixed(3)} ms per client`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
