/**
 * Calls `onGone` once the process that started this one has exited.
 *
 * Why: npm starts a package's bin through a shell — `npx svcpp-platform` is `npm exec` → `sh -c svcpp-platform …` →
 * node — and, when it is stopped, forwards SIGINT/SIGTERM to that shell only. The shell dies without passing the
 * signal on, and the platform would keep running, orphaned (re-parented to init or a subreaper), holding its port and
 * its database. Node has no event for "my parent exited", so the parent's id is compared a few times a second: an
 * orphan's parent id changes. The timer is unref'd, so it never keeps a finished process alive. Returns a function
 * that stops watching.
 */
export function onParentExit(onGone: (parentPid: number) => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone(parent);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Whether this process was started by npm (`npx`, `npm exec`, `npm start`, `npm run …`): npm sets
 * `npm_lifecycle_event` for what it runs, and its shell in between is the one that does not forward signals.
 */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_lifecycle_event !== undefined;
}
