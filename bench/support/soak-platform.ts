/**
 * The soaks' platform: `bench/soak-platform-child.ts` in its own process (its command-line arguments as given — a
 * file database, rate limits, a public URL …), resolved once it listens. The child is killed with this process,
 * and `exited` lets a soak that kills it (kill -9) wait for the end before starting it again on the same file.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface SoakPlatform {
  child: ChildProcess;
  /** The API base the platform announces (its public URL's, when `--public-url` was given). */
  apiBase: string;
  devApp: { id: string; botToken: string };
  exited: Promise<void>;
}

export function startSoakPlatform(args: string[]): Promise<SoakPlatform> {
  const child = fork(fileURLToPath(new URL('../soak-platform-child.ts', import.meta.url)), args, {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.removeListener('exit', kill); // a soak restarts its platform many times: no listener pile-up
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    child.once('message', (m: { apiBase: string; devApp: { id: string; botToken: string } }) =>
      resolve({ child, apiBase: m.apiBase, devApp: m.devApp, exited }),
    );
    child.once('exit', (code, signal) => reject(new Error(`platform exited before it listened (${code ?? signal})`)));
  });
}
