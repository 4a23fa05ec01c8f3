/** POSTs JSON to a development route of a benchmark platform (trusting its CA) and returns the parsed answer. */
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { PlatformProcess } from './platform-process.js';

export async function postDevRoute(
  platform: Pick<PlatformProcess, 'apiBase' | 'caFile'>,
  path: string,
  body: unknown,
): Promise<unknown> {
  const url = new URL(`${platform.apiBase}/dev${path}`);
  const payload = Buffer.from(JSON.stringify(body));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': payload.length },
        ...(platform.caFile ? { ca: readFileSync(platform.caFile, 'utf8') } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}: ${text}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
