/**
 * Decides, for each request the relay (rate-limit-relay.ts) saw arrive during a told wait, whether the client wrote it
 * before it had read the answer that told the wait — the request crossed the answer in flight, which no client can
 * avoid — or after, into the wait.
 *
 * From outside, the two cannot be told apart: a request written just before the client read the answer arrives just
 * after the answer left. The client's I/O thread knows: it logs (Verbose) "rate limit: <route> written" right before
 * it writes a request and "rate limit: <route> told to wait" when it has read an answer that told a wait, both on the
 * one thread, in the order they happen. Requests of one route go out one at a time and in order, so the n-th request
 * of a route the relay saw is the n-th "written" line of that route, and the n-th told answer of a route is its n-th
 * "told to wait" line.
 */
import { readFileSync } from 'node:fs';
import type { EarlyArrival } from './rate-limit-relay.js';

export interface OrderVerdict {
  /** Written before the client read the answer: not a broken wait. */
  crossed: EarlyArrival[];
  /** Written after the client had read the answer: a request sent into a told wait. */
  intoTheWait: EarlyArrival[];
  /** Not found in the client's log (a mismatch between the relay's and the client's counts): treated as a failure. */
  unmatched: EarlyArrival[];
}

/** Line positions per "<kind> <route>", in the order the client logged them. */
function indexLog(logFile: string): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  const lines = readFileSync(logFile, 'utf8').split('\n');
  lines.forEach((line, position) => {
    const match = /rate limit: (.+) (written|told to wait)$/.exec(line);
    if (!match) return;
    const key = `${match[2]} ${match[1]}`;
    positions.set(key, [...(positions.get(key) ?? []), position]);
  });
  return positions;
}

/** `logFileOf(token)`: the svcpp.log of the client that used the token. */
export function orderAgainstClientLogs(early: EarlyArrival[], logFileOf: (token: string) => string): OrderVerdict {
  const verdict: OrderVerdict = { crossed: [], intoTheWait: [], unmatched: [] };
  const logs = new Map<string, Map<string, number[]>>();
  for (const arrival of early) {
    if (!logs.has(arrival.token)) logs.set(arrival.token, indexLog(logFileOf(arrival.token)));
    const log = logs.get(arrival.token)!;
    const written = log.get(`written ${arrival.route}`)?.[arrival.rank];
    const told = log.get(`told to wait ${arrival.toldBy.route}`)?.[arrival.toldBy.rank];
    if (written === undefined || told === undefined) verdict.unmatched.push(arrival);
    else if (written < told) verdict.crossed.push(arrival);
    else verdict.intoTheWait.push(arrival);
  }
  return verdict;
}
