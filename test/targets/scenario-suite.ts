/**
 * The cross-target SDK suite (test/targets/<target>.test.ts): the packed package, with the target's prebuild, run by
 * the target's own Node under its emulator through test/targets/scenario.mjs, on both backends, against the platform
 * running natively here. Each recording must hold the other player's tone: the call went through the relay, with
 * DAVE end-to-end encryption, both ways.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2EPlatform, type E2EPlatform } from '../e2e/harness.js';
import { expectTone, writeToneWav } from '../e2e/voice-support.js';
import { packPackage, root, run, withPackageLock } from '../pack/package.js';
import { foreignPath, installFor, readResult, runForeign, type ForeignTarget } from './foreign-sdk.js';
import { startWineLocalClient } from './wine-local-client.js';

const TONE = { ada: 440, bob: 660 } as const;
const CROSS_TARGETS: ForeignTarget[] = ['win32-x64', 'linux-arm64'];
const TONE_SECONDS = 3;
const DESK = 'desk';

/**
 * `waitMs`: how long one step of the scenario may take on the emulator (qemu-user is several times slower).
 * `localRpc`: also run the platform's local client under the target's Node (Windows: on its named pipe) and the SDK's
 * local RPC commands against it (test/targets/local-rpc.mjs).
 */
export function describeForeignScenario(
  target: ForeignTarget,
  { waitMs, localRpc = false }: { waitMs: number; localRpc?: boolean },
): void {
  describe(`the SDK on ${target}, from the packed package, against the platform here`, () => {
    let tarball: string;
    let project: string;
    const work = join(root, 'build-prebuild', `scenario-${target}`);

    beforeAll(() => {
      // Both cross targets' prebuilds (scripts/build-target.sh's trees; the builds are no-ops when up to date), then
      // the tarball that ships them beside linux-x64's, as a release does: the one package for every system.
      withPackageLock(() => {
        for (const cross of CROSS_TARGETS)
          run(process.execPath, ['tools/make-cross-prebuild.mjs', '--target', cross], root);
      });
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { recursive: true });
      const packed = packPackage(work);
      for (const system of ['linux-x64', ...CROSS_TARGETS]) {
        expect(
          packed.files.filter((f) => f.startsWith(`prebuilds/${system}/`)),
          `prebuilds/${system} in the tarball`,
        ).toHaveLength(2);
      }
      tarball = packed.tarball;
      project = installFor(target, tarball);
    }, 900_000); // the prebuilds' smoke runs under the emulators and prepack's build, on a loaded 2-core machine
    afterAll(() => rmSync(project, { recursive: true, force: true }));

    // Information, not a target (an emulator is not the hardware): the figures are printed, only the run is checked.
    it(
      `runs the sync-call benchmark (bench/sync-call.ts --smoke) on ${target} and prints its figures`,
      async () => {
        const { status, output } = await runForeign(
          target,
          project,
          foreignPath(target, join(project, 'sync-call.mjs')),
          ['--smoke'],
          waitMs * 2,
        );
        console.log(`bench/sync-call.ts on ${target}:\n${output}`);
        expect(status, output).toBe(0);
        expect(output).toMatch(/N-API +AuthorizationArgs_Scopes +[\d.]+ ns\/call/);
        expect(output).toMatch(/koffi +AuthorizationArgs_Scopes +[\d.]+ ns\/call/);
      },
      waitMs * 3,
    );

    it(
      `runs the dispatch benchmark (bench/dispatch-sdk.ts --smoke) on ${target} and prints its figures`,
      async () => {
        const e2e = await startE2EPlatform();
        try {
          const configFile = join(work, 'dispatch-platform.json');
          mkdirSync(work, { recursive: true });
          // The stream of 2,000 dispatches is given 3 s to arrive at the emulated client while its JS thread is held.
          writeFileSync(
            configFile,
            JSON.stringify({
              apiBase: e2e.apiBase,
              webBase: e2e.webBase,
              caFile: foreignPath(target, e2e.caFile),
              botToken: e2e.platform.devApp.botToken,
              applicationId: e2e.platform.devApp.id,
              queueMs: 3_000,
            }),
          );
          const { status, output } = await runForeign(
            target,
            project,
            foreignPath(target, join(project, 'dispatch-sdk.mjs')),
            [foreignPath(target, configFile), '--smoke'],
            waitMs * 6,
          );
          console.log(`bench/dispatch-sdk.ts on ${target}:\n${output}`);
          expect(status, output).toBe(0);
          expect(output).toMatch(/SDK napi +[\d,]+ dispatches\/s/);
          expect(output).toMatch(/SDK koffi +[\d,]+ dispatches\/s/);
        } finally {
          await e2e.close();
        }
      },
      waitMs * 7,
    );

    describe.each(['napi', 'koffi'] as const)('over %s', (backend) => {
      let e2e: E2EPlatform;
      beforeAll(async () => {
        // DESK: the desktop user the local client signs in as (a configured user has no password, as on a development
        // platform).
        e2e = await startE2EPlatform({ config: { users: [{ username: DESK, global_name: 'Desk' }] } });
      });
      afterAll(async () => e2e?.close());

      it(
        `signs in, befriends, invites into a lobby, chats and holds an encrypted call on ${target}`,
        async () => {
          const dir = join(work, backend);
          mkdirSync(dir, { recursive: true });
          const files = {
            tones: { ada: join(dir, 'ada-tone.wav'), bob: join(dir, 'bob-tone.wav') },
            heard: { ada: join(dir, 'ada-heard.wav'), bob: join(dir, 'bob-heard.wav') },
          };
          writeToneWav(files.tones.ada, TONE.ada, TONE_SECONDS);
          writeToneWav(files.tones.bob, TONE.bob, TONE_SECONDS);
          const resultFile = join(dir, 'result.json');
          rmSync(resultFile, { force: true });
          const at = (path: string) => foreignPath(target, path);
          const config = {
            run: `${target}-${backend}`,
            backend,
            waitMs,
            apiBase: e2e.apiBase,
            webBase: e2e.webBase,
            caFile: at(e2e.caFile),
            botToken: e2e.platform.devApp.botToken,
            applicationId: e2e.platform.devApp.id,
            tones: { ada: at(files.tones.ada), bob: at(files.tones.bob) },
            heard: { ada: at(files.heard.ada), bob: at(files.heard.bob) },
            resultFile: at(resultFile),
          };
          const configFile = join(dir, 'config.json');
          writeFileSync(configFile, JSON.stringify(config, null, 2));

          const { status, output } = await runForeign(
            target,
            project,
            at(join(project, 'scenario.mjs')),
            [at(configFile)],
            waitMs * 12,
          );
          const result = readResult(resultFile);
          const context = `exit ${status}; result ${JSON.stringify(result, null, 1)}; output:\n${output}`;
          expect(result?.ok, context).toBe(true);
          expect(result!.system).toBe(target);
          // No C++ exception escaped a call as unhandled (under Wine an error answered through koffi prints one:
          // docs/platforms.md).
          expect(output, context).not.toMatch(/Unhandled exception/);
          // The binary that served it is the target's own prebuild, inside the installed package.
          expect((result as unknown as { library: string }).library.replaceAll('\\', '/')).toContain(
            `node_modules/svcpp/prebuilds/${target}/`,
          );
          // Each heard the other's tone: Ada's recording holds Bob's 660 Hz, Bob's Ada's 440 Hz.
          expectTone(files.heard.ada, TONE.bob, 1000, { target, backend, steps: result!.steps });
          expectTone(files.heard.bob, TONE.ada, 1000, { target, backend, steps: result!.steps });
        },
        waitMs * 14,
      );

      if (localRpc)
        it(
          `the SDK's local RPC client reaches the platform's local client over its ${target} transport`,
          async () => {
            const dir = join(work, backend, 'local-rpc');
            const local = await startWineLocalClient({
              dir,
              platformUrl: e2e.webBase,
              user: DESK,
              applicationId: e2e.platform.devApp.id,
              caFile: e2e.caFile,
              timeoutMs: waitMs,
            });
            try {
              expect(local.path).toMatch(/^\\\\\?\\pipe\\discord-ipc-\d$/);
              const resultFile = join(dir, 'result.json');
              const configFile = join(dir, 'config.json');
              writeFileSync(
                configFile,
                JSON.stringify({
                  backend,
                  waitMs,
                  applicationId: e2e.platform.devApp.id,
                  resultFile: foreignPath(target, resultFile),
                }),
              );
              const { status, output } = await runForeign(
                target,
                project,
                foreignPath(target, join(project, 'local-rpc.mjs')),
                [foreignPath(target, configFile)],
                waitMs * 4,
              );
              const result = readResult(resultFile);
              expect(
                result?.ok,
                `exit ${status}; result ${JSON.stringify(result, null, 1)}; ` +
                  `output:\n${output}\nlocal client:\n${local.log()}`,
              ).toBe(true);
              expect(result!.system).toBe(target);
              // Answered commands can only come from the local client, over the pipe: the SDK under Wine has no other
              // RPC server to find (it retried until the handshake was done).
              expect((result as unknown as { attempts: number }).attempts).toBeGreaterThanOrEqual(1);
            } finally {
              await local.stop();
            }
          },
          waitMs * 6,
        );
    });
  });
}
