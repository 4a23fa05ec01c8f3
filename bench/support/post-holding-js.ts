/**
 * POSTs one JSON body to a development route of a benchmark platform while this thread stays blocked: the request
 * runs on a worker thread and this one waits on an Atomics cell until it is answered, so no event-loop turn (no
 * handler) happens meanwhile. A worker rather than a child process: a child cannot be started where the benchmark
 * runs under qemu-user (no binfmt handler for the target's Node), and a thread starts in milliseconds.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

// Plain JavaScript (an eval'd worker is CommonJS): the same file runs under tsx here and bundled on a foreign target.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { url, ca, payload, cell } = workerData;
const transport = url.startsWith('https:') ? require('node:https') : require('node:http');
const finish = (status) => { Atomics.store(cell, 1, status); Atomics.store(cell, 0, 1); Atomics.notify(cell, 0); };
const options = { method: 'POST', headers: { 'content-type': 'application/json' }, ...(ca ? { ca } : {}) };
const req = transport.request(url, options,
  (res) => { res.resume(); res.on('end', () => finish(res.statusCode)); });
req.on('error', () => finish(-1));
req.end(payload);
`;

export function postDevRouteHoldingJs(
  platform: { apiBase: string; caFile?: string },
  path: string,
  body: unknown,
): void {
  const cell = new Int32Array(new SharedArrayBuffer(8)); // [answered, HTTP status or -1]
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      url: `${platform.apiBase}/dev${path}`,
      payload: JSON.stringify(body),
      cell,
      ca: platform.caFile ? readFileSync(platform.caFile, 'utf8') : undefined,
    },
  });
  worker.unref();
  while (Atomics.load(cell, 0) === 0) Atomics.wait(cell, 0, 0, 1_000);
  void worker.terminate(); // its keep-alive socket would hold it a few seconds more
  const status = Atomics.load(cell, 1);
  if (status !== 200)
    throw new Error(`POST /dev${path} answered ${status === -1 ? 'with a connection error' : status}`);
}
