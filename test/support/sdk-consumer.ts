// What the SDK archives' consumer programs (test/fixtures/sdk-consumer and the archive's examples/quickstart.c) print,
// shared by the archive tests of every target (test/sdk-archive.test.ts, test/targets/sdk-archives.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const header = readFileSync(join(root, 'native/include/svcpp.h'), 'utf8');

/** svcpp.h's SVCPP_ABI_VERSION_MAJOR or _MINOR. */
export const abi = (part: 'MAJOR' | 'MINOR') =>
  Number(new RegExp(`#define SVCPP_ABI_VERSION_${part} (\\d+)`).exec(header)![1]);

/** Both consumers' output: the product version from the library, the ABI from the header, a PKCE pair. */
export const consumerOutput = (version: string) =>
  [
    `svcpp ${version} abi ${abi('MAJOR')}.${abi('MINOR')}`,
    'scopes openid sdk.social_layer',
    'pkce 43 43 1234567890123456789',
  ].join('\n');
