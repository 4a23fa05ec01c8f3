// `npm run docs` (tools/docs/build.mjs): TypeDoc builds the TypeScript reference with warnings as errors, and the
// C/C++ reference generated from the IDL has an entry for every exported symbol and every enum value.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as idl from '../idl/surface.mjs';
import { buildModel } from '../tools/gen/model.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'build-docs');

describe('npm run docs', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'tools/docs/build.mjs')], { cwd: root, stdio: 'pipe' });
  }, 300_000);

  it('writes the TypeScript reference: both entry points and the classes users start from', () => {
    for (const page of ['index.html', 'modules/svcpp.html', 'modules/svcpp_server.html', 'classes/svcpp.Client.html', 'classes/svcpp.SvcppServer.html']) {
      expect(existsSync(join(out, 'typescript', page)), page).toBe(true);
    }
    const client = readFileSync(join(out, 'typescript', 'classes/svcpp.Client.html'), 'utf8');
    expect(client).toContain('createOrJoinLobby');
    expect(client).toContain('sendLobbyMessage');
  });

  it('opens on the README\'s overview and the three guides, each a page of its own (it was an empty module list)', () => {
    const landing = readFileSync(join(out, 'typescript', 'index.html'), 'utf8');
    expect(landing).toContain('An open, redistributable social SDK for games, and the local platform it talks to.');
    for (const guide of ['electron-launcher', 'game-server', 'engine-plugin']) {
      expect(landing).toContain(`href="documents/${guide}.html"`);
      const page = readFileSync(join(out, 'typescript', 'documents', `${guide}.html`), 'utf8');
      expect(page).toContain('Run the example');
    }
  });

  it('writes the C and C++ reference with every exported symbol and enum value of the IDL', () => {
    const text = readFileSync(join(out, 'c-cpp-reference.md'), 'utf8');
    const model = buildModel(idl);
    const missing = model.exportedSymbols.filter((symbol: string) => !text.includes(`${symbol}(`) && !text.includes(`\`${symbol}\``));
    expect(missing).toEqual([]);
    for (const e of model.enums) for (const [name] of e.values) expect(text).toContain(`\`${e.cName}_${name}\``);
    expect(text).toContain('Svcpp_Errc Svcpp_Client_Connect(Svcpp_Client *self);');
    expect(text).toContain('C++: `svcpp::Client::Connect`');
  });

  it('links the guides, and each guide exists', () => {
    const index = readFileSync(join(out, 'index.md'), 'utf8');
    for (const guide of ['electron-launcher.md', 'game-server.md', 'engine-plugin.md']) {
      expect(index).toContain(guide);
      expect(existsSync(join(root, 'docs', guide)), guide).toBe(true);
    }
  });
});
