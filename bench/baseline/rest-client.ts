/**
 * The baseline's HTTP side: Bearer JSON requests over one keep-alive agent — what a pure-TypeScript game client
 * needs at least to call the platform's REST API. No rate-limit bookkeeping and no retries (the benchmark platform
 * has its limits out of the way), so it is a lower bound on a real client's cost.
 */
import http from 'node:http';
import https from 'node:https';

export class BaselineRestClient {
  private readonly agent: http.Agent;

  constructor(
    private readonly apiBase: string,
    private readonly token: string,
    ca?: string,
  ) {
    this.agent = apiBase.startsWith('https:')
      ? new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) })
      : new http.Agent({ keepAlive: true });
  }

  /** Sends JSON, resolves with the parsed 2xx answer, rejects with the status and body otherwise. */
  request(method: string, path: string, json?: unknown): Promise<unknown> {
    const url = new URL(`${this.apiBase}/${path}`);
    const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            authorization: `Bearer ${this.token}`,
            ...(payload && { 'content-type': 'application/json', 'content-length': payload.length }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) reject(new Error(`${method} /${path} answered ${status}: ${text}`));
            else resolve(text === '' ? undefined : JSON.parse(text));
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
