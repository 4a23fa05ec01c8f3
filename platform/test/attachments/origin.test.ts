/**
 * The attachments origin over HTTP (PROTOCOL.md §14.4 "Attachment files"): its own listener and base URL (port,
 * advertised URL, TLS, the CLI's banner), what it answers for each type (download or inline, always sandboxed and
 * never sniffed), that it serves nothing but the files, that the platform's own origin serves none, and that a
 * page of the attachments origin is a foreign Origin to the platform.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { request } from '../support/http.js';
import { freeLoopbackPort } from '../support/ports.js';
import { startTestPlatform } from '../support/platform.js';
import { botMultipart } from '../bot/helpers.js';
import { startBotPlatform, type BotFixture } from '../bot/fixture.js';

let f: BotFixture;
beforeAll(async () => {
  f = await startBotPlatform();
});
afterAll(() => f?.platform.close());

async function upload(
  filename: string,
  type: string,
  body = 'content',
): Promise<{ url: string; proxy_url: string; filename: string; id: string }> {
  const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
    { name: 'payload_json', body: JSON.stringify({ content: filename }) },
    { name: 'files[0]', filename, type, body },
  ]);
  expect(response.status, response.text).toBe(200);
  return response.body.attachments[0];
}

describe('attachment answers', () => {
  /** type uploaded → content type served, and whether it is a download. */
  const TYPES: Array<[string, string, 'attachment' | 'inline']> = [
    ['text/html', 'text/html', 'attachment'],
    ['image/svg+xml', 'image/svg+xml', 'attachment'],
    ['application/xhtml+xml', 'application/xhtml+xml', 'attachment'],
    ['text/xml', 'text/xml', 'attachment'],
    ['application/xml', 'application/xml', 'attachment'],
    ['application/rss+xml', 'application/rss+xml', 'attachment'],
    ['text/javascript', 'text/javascript', 'attachment'],
    ['application/javascript', 'application/javascript', 'attachment'],
    ['text/css', 'text/css', 'attachment'],
    ['application/pdf', 'application/pdf', 'attachment'],
    ['application/octet-stream', 'application/octet-stream', 'attachment'],
    ['TEXT/HTML', 'text/html', 'attachment'],
    ['image/png', 'image/png', 'inline'],
    ['image/jpeg', 'image/jpeg', 'inline'],
    ['image/gif', 'image/gif', 'inline'],
    ['image/webp', 'image/webp', 'inline'],
    ['video/mp4', 'video/mp4', 'inline'],
    ['audio/ogg', 'audio/ogg', 'inline'],
    ['text/plain', 'text/plain', 'inline'],
  ];

  it('active types are downloads, passive ones inline; every answer is sandboxed and never sniffed', async () => {
    for (const [uploaded, served, disposition] of TYPES) {
      const attachment = await upload('file.bin', uploaded);
      const response = await request(attachment.url);
      expect(response.status, uploaded).toBe(200);
      expect(response.headers['content-type'], uploaded).toBe(served);
      expect(response.headers['content-disposition'], uploaded).toBe(`${disposition}; filename="file.bin"`);
      expect(response.headers['content-security-policy'], uploaded).toBe('sandbox');
      expect(response.headers['x-content-type-options'], uploaded).toBe('nosniff');
      expect(response.text).toBe('content');
    }
  });

  it('a file stored before names were sanitised: both filename forms; a stored charset is kept for text, a bad type is bytes', async () => {
    const stored = (filename: string, contentType: string) => {
      const id = f.platform.context.ids.next();
      f.platform.store.botGuilds.insertAttachment({
        id,
        channelId: f.generalId,
        filename,
        contentType,
        data: Buffer.from('old'),
      });
      return `${f.platform.attachmentsUrl}/attachments/${f.generalId}/${id}/${encodeURIComponent(filename)}`;
    };
    const html = await request(stored('ü "x".html', 'text/html; charset=UTF-8'));
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['content-disposition']).toBe(
      `attachment; filename="_ _x_.html"; filename*=UTF-8''%C3%BC%20%22x%22.html`,
    );
    const text = await request(stored('notes.txt', 'text/plain; charset="ISO-8859-1"'));
    expect([text.headers['content-type'], text.headers['content-disposition']]).toEqual([
      'text/plain; charset=iso-8859-1',
      'inline; filename="notes.txt"',
    ]);
    const garbage = await request(stored('odd.bin', 'not a type'));
    expect([garbage.headers['content-type'], garbage.headers['content-disposition']]).toEqual([
      'application/octet-stream',
      'attachment; filename="odd.bin"',
    ]);
  });

  it('HEAD answers with the headers and no body; a wrong name, an unknown id or a bad id is 404', async () => {
    const attachment = await upload('head.txt', 'text/plain');
    const head = await request(attachment.url, { method: 'HEAD' });
    expect([head.status, head.headers['content-security-policy'], head.text]).toEqual([200, 'sandbox', '']);
    const base = attachment.url.slice(0, attachment.url.lastIndexOf('/'));
    for (const url of [
      `${base}/other.txt`,
      `${f.platform.attachmentsUrl}/attachments/${f.generalId}/1/head.txt`,
      `${f.platform.attachmentsUrl}/attachments/x/${attachment.id}/head.txt`,
    ]) {
      const response = await request(url);
      expect([response.status, response.body], url).toEqual([404, { code: 0, message: '404: Not Found' }]);
    }
  });
});

describe('two origins', () => {
  it('attachment URLs are on the attachments origin; the platform origin serves no file', async () => {
    const attachment = await upload('where.txt', 'text/plain');
    expect(attachment.url.startsWith(`${f.platform.attachmentsUrl}/attachments/`)).toBe(true);
    expect(new URL(f.platform.attachmentsUrl).origin).not.toBe(new URL(f.platform.httpUrl).origin);
    expect((await request(`${f.platform.httpUrl}${new URL(attachment.url).pathname}`)).status).toBe(404);
  });

  it('the attachments origin serves nothing but files: no API, no pages, no uploads', async () => {
    for (const path of [
      '/',
      '/api/v10/gateway',
      '/api/v10/dev/state',
      '/developers',
      '/oauth2/authorize',
      '/.well-known/openid-configuration',
    ]) {
      const response = await request(`${f.platform.attachmentsUrl}${path}`);
      expect(response.status, path).toBe(404);
    }
    const attachment = await upload('post.txt', 'text/plain');
    // A file's path is served under GET and HEAD only: another method is 405, as on every listener (PROTOCOL.md §1).
    expect((await request(attachment.url, { method: 'POST', json: {} })).status).toBe(405);
  });

  it("a page on the attachments origin is a foreign Origin to the platform's API", async () => {
    const response = await request(`${f.platform.apiBase}/gateway`, { headers: { origin: f.platform.attachmentsUrl } });
    expect(response.status).toBe(403);
    expect(response.body.message).toContain('Origin not allowed');
    // Another loopback origin (a local tool) still passes.
    expect(
      (await request(`${f.platform.apiBase}/gateway`, { headers: { origin: 'http://127.0.0.1:5173' } })).status,
    ).toBe(200);
  });

  it("the attachments listener is one of the platform's own: the outbound guard refuses it", async () => {
    expect(await f.platform.context.outbound.guard.problem(`${f.platform.attachmentsUrl}/attachments/1/2/x`)).toContain(
      'the platform itself',
    );
  });
});

describe('configuring the attachments origin', () => {
  it('its port and advertised URL are options; the attachment url follows the advertised one', async () => {
    const port = await freeLoopbackPort();
    const platform = await startTestPlatform({ attachments: { port, publicUrl: 'https://cdn.play.example/' } });
    try {
      expect(platform.attachmentsUrl).toBe('https://cdn.play.example');
      expect(platform.context.urls.attachments).toBe('https://cdn.play.example');
      // Listening on the given port, answering for the advertised host.
      const response = await request(`http://127.0.0.1:${port}/attachments/1/2/x.txt`, {
        headers: { host: 'cdn.play.example' },
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 0, message: '404: Not Found' });
    } finally {
      await platform.close();
    }
  });

  it('with TLS the attachments origin is https with the platform certificate', async () => {
    const platform = await startTestPlatform({ tls: true });
    try {
      expect(platform.attachmentsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const response = await request(`${platform.attachmentsUrl}/attachments/1/2/x.txt`, { ca: platform.caCertPem! });
      expect(response.status).toBe(404);
    } finally {
      await platform.close();
    }
  });

  it('the CLI takes --attachments-port and prints the attachments origin with the other addresses', async () => {
    const port = await freeLoopbackPort();
    const cli = await startCli(['--port', '0', '--db', ':memory:', '--attachments-port', String(port)]);
    try {
      expect(cli.output()).toMatch(new RegExp(`Attachments\\s+http://127\\.0\\.0\\.1:${port}\\s`));
      expect((await request(`http://127.0.0.1:${port}/attachments/1/2/x.txt`)).status).toBe(404);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
  });
});
