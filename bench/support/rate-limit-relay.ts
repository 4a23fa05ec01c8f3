/**
 * An HTTP relay between SDK clients and the platform that sees every request and answer, for the 429 soak
 * (bench/soak-429.ts). Per client token it records:
 *   - the waits the platform told the client (from the moment the relay received the answer — the client cannot read it
 *     earlier — until the answer's arrival plus the wait, the earliest the client's own clock can end it): a global 429
 *     (any route), a bucket 429 (routes of that bucket), an answer saying the bucket is exhausted
 *     (X-RateLimit-Remaining 0, until Reset-After). These are the answers after which the SDK logs "rate limit: <route>
 *     told to wait";
 *   - every request that arrived while one of those waits ran, with what identifies it in the client's own log: the
 *     route and the request's rank among that route's requests of the token (`early`), and the told answer likewise.
 * Whether such a request was written before the client had read the answer (it crossed the answer in flight) or after
 * (a broken promise) only the client's I/O thread knows: told-wait-order.ts decides it from the client's log.
 * The gateway WebSocket passes through untouched.
 */
import http from 'node:http';
import net from 'node:net';

/** A route of the platform as the SDK names it: method and path below /api/v10, ids as :id. */
export const sdkRouteOf = (method: string, url: string) =>
  `${method} ${url
    .split('?')[0]!
    .replace(/^\/api\/v\d+/, '')
    .replace(/\/\d{5,}/g, '/:id')}`;

/** An answer that told a wait: its route and its rank among the token's told answers of that route (0-based). */
export interface ToldAnswer {
  route: string;
  rank: number;
  scope: 'global' | 'bucket' | 'exhausted';
}
/** A request that arrived while a told wait ran: its route, its rank among the token's requests of that route. */
export interface EarlyArrival {
  token: string;
  route: string;
  rank: number;
  toldBy: ToldAnswer;
  msBeforeTheEnd: number;
}

interface Wait {
  from: number;
  until: number;
  toldBy: ToldAnswer;
}

export interface RelayCounts {
  requests: number;
  ok: number;
  other: number;
  global429: number;
  bucket429: number;
  shared429: number;
  exhausted: number;
}

export interface RateLimitRelay {
  base: string;
  counts: RelayCounts;
  early: EarlyArrival[];
  /** Keep-alive connections the clients opened. */
  connections(): number;
  close(): Promise<void>;
}

export async function startRateLimitRelay(upstreamBase: string): Promise<RateLimitRelay> {
  const upstream = new URL(upstreamBase);
  const counts: RelayCounts = { requests: 0, ok: 0, other: 0, global429: 0, bucket429: 0, shared429: 0, exhausted: 0 };
  const early: EarlyArrival[] = [];
  const globalWait = new Map<string, Wait>(); // token → wait
  const bucketWaits = new Map<string, Wait[]>(); // token + bucket → waits (a 429's and an exhaustion may overlap)
  /** Per token (what that client was told): route → the bucket the platform named for it. */
  const bucketOfRoute = new Map<string, string>();
  const ranks = new Map<string, number>(); // token + kind + route → next rank

  const nextRank = (key: string) => {
    const rank = ranks.get(key) ?? 0;
    ranks.set(key, rank + 1);
    return rank;
  };

  function checkRequest(token: string, route: string, at: number): void {
    const rank = nextRank(`${token} sent ${route}`);
    const bucket = bucketOfRoute.get(`${token} ${route}`);
    const waits = [
      globalWait.get(token),
      ...(bucket === undefined ? [] : (bucketWaits.get(`${token} ${bucket}`) ?? [])),
    ];
    for (const wait of waits) {
      if (!wait || at < wait.from || at >= wait.until) continue;
      early.push({ token, route, rank, toldBy: wait.toldBy, msBeforeTheEnd: wait.until - at });
      return;
    }
  }

  /** An answer `received` from the platform, for a request of `token` on `route`. */
  function learnAnswer(
    token: string,
    route: string,
    status: number,
    headers: http.IncomingHttpHeaders,
    body: string,
    received: number,
  ): void {
    const named = headers['x-ratelimit-bucket'] as string | undefined;
    if (named) bucketOfRoute.set(`${token} ${route}`, named);
    const bucket = bucketOfRoute.get(`${token} ${route}`); // named now, or by an earlier answer of the route
    const addBucketWait = (wait: Wait) => {
      const key = `${token} ${bucket}`;
      bucketWaits.set(key, [...(bucketWaits.get(key) ?? []).filter((w) => w.until > received), wait]);
    };
    if (status === 429) {
      const global = headers['x-ratelimit-global'] === 'true';
      const toldBy: ToldAnswer = {
        route,
        rank: nextRank(`${token} told ${route}`),
        scope: global ? 'global' : 'bucket',
      };
      const wait = {
        from: received,
        until: received + Number((JSON.parse(body) as { retry_after: number }).retry_after) * 1000,
        toldBy,
      };
      if (global) {
        counts.global429++;
        const running = globalWait.get(token);
        if (!running || running.until <= wait.until) globalWait.set(token, wait);
      } else {
        if (headers['x-ratelimit-scope'] === 'shared') counts.shared429++;
        else counts.bucket429++;
        if (bucket) addBucketWait(wait);
      }
      return;
    }
    if (status < 400) counts.ok++;
    else counts.other++;
    if (bucket && headers['x-ratelimit-remaining'] === '0') {
      counts.exhausted++;
      const toldBy: ToldAnswer = { route, rank: nextRank(`${token} told ${route}`), scope: 'exhausted' };
      addBucketWait({ from: received, until: received + Number(headers['x-ratelimit-reset-after']) * 1000, toldBy });
    }
  }

  const connections = new Set<net.Socket>();
  const agent = new http.Agent({ keepAlive: true });
  const relay = http.createServer((req, res) => {
    const at = performance.now();
    const token = req.headers.authorization ?? '';
    const route = sdkRouteOf(req.method!, req.url!);
    counts.requests++;
    connections.add(req.socket);
    checkRequest(token, route, at);
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          // Learnt before the answer is handed over: a request arriving afterwards is checked against it.
          learnAnswer(token, route, answer.statusCode!, answer.headers, body.toString('utf8'), performance.now());
          res.writeHead(answer.statusCode!, answer.headers).end(body);
        });
      },
    );
    forward.on('error', (error) => res.destroy(error));
    req.pipe(forward);
  });
  // No keep-alive timeout: a connection the relay closed while idle makes the SDK write its request again on a fresh
  // one, and a request's rank must be the same in the relay's count and in the client's log.
  relay.keepAliveTimeout = 0;
  relay.on('upgrade', (req, socket, head) => {
    const link = net.connect(Number(upstream.port), upstream.hostname, () => {
      link.write(
        `${req.method} ${req.url} HTTP/1.1\r\n${Object.entries(req.headers)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\r\n')}\r\n\r\n`,
      );
      link.write(head);
      socket.pipe(link).pipe(socket);
    });
    link.on('error', () => socket.destroy());
    socket.on('error', () => link.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`,
    counts,
    early,
    connections: () => connections.size,
    close: async () => {
      agent.destroy();
      relay.closeAllConnections();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
