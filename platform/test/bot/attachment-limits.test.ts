/**
 * Attachment limits and names (PROTOCOL.md §14.4): at most 10 files per message however they come (with or
 * without an `attachments` array, on create and on edit), no multipart part silently dropped, and file names
 * sanitised as the published service does (path parts, `\`, spaces and punctuation never reach `filename`).
 * A refused request stores nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { request } from '../support/http.js';
import { botCall, botSession, botMultipart, INTENTS } from './helpers.js';
import { startBotPlatform, type BotFixture } from './fixture.js';
import { openModal, submitWithFiles } from '../interactions/support.js';

let f: BotFixture;
beforeAll(async () => {
  f = await startBotPlatform();
});
afterAll(() => f?.platform.close());
afterEach(() => vi.restoreAllMocks());

const files = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `files[${i}]`,
    filename: `f${i}.txt`,
    type: 'text/plain',
    body: `file ${i}`,
  }));
const payload = (json: unknown) => ({ name: 'payload_json', type: 'application/json', body: JSON.stringify(json) });
const TOO_MANY = { code: 30015, message: 'Maximum number of attachments in a message reached (10)' };

/** Every attachment row the store is asked to write while `run` runs (the real store still writes them). */
async function attachmentWrites(run: () => Promise<unknown>): Promise<string[]> {
  const written: string[] = [];
  const insert = f.platform.store.botGuilds.insertAttachment.bind(f.platform.store.botGuilds);
  vi.spyOn(f.platform.store.botGuilds, 'insertAttachment').mockImplementation((file) => {
    written.push(file.filename);
    insert(file);
  });
  await run();
  return written;
}

const latestMessageId = async () =>
  (await botCall(f, 'GET', `/channels/${f.generalId}/messages?limit=1`)).body[0]?.id as string | undefined;

describe('attachment count', () => {
  it('11 files without an attachments array: 30015, nothing stored; 10 are fine', async () => {
    const before = await latestMessageId();
    let response!: Awaited<ReturnType<typeof botMultipart>>;
    const written = await attachmentWrites(async () => {
      response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
        payload({ content: 'eleven' }),
        ...files(11),
      ]);
    });
    expect([response.status, response.body]).toEqual([400, TOO_MANY]);
    expect(written).toEqual([]);
    expect(await latestMessageId()).toBe(before);

    const ten = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'ten' }),
      ...files(10),
    ]);
    expect(ten.status, ten.text).toBe(200);
    expect(ten.body.attachments).toHaveLength(10);
  });

  it('11 files with no payload_json at all (text fields only) are refused the same way', async () => {
    const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      { name: 'content', body: 'fields' },
      ...files(11),
    ]);
    expect([response.status, response.body]).toEqual([400, TOO_MANY]);
  });

  it('999 file parts are refused whole, never cut to the first 100', async () => {
    const before = await latestMessageId();
    let response!: Awaited<ReturnType<typeof botMultipart>>;
    const written = await attachmentWrites(async () => {
      response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
        payload({ content: 'many' }),
        ...files(999),
      ]);
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.code).toBe(50035);
    expect(response.body.errors._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect(written).toEqual([]);
    expect(await latestMessageId()).toBe(before);
  });

  it('more than 100 text fields are refused too, not cut', async () => {
    const fields = Array.from({ length: 150 }, (_, i) => ({ name: `field${i}`, body: 'x' }));
    const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'fields' }),
      ...fields,
    ]);
    expect(response.status, response.text).toBe(400);
    expect(response.body.errors._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
  });

  it('an edit that would leave more than 10 attachments is 30015 and changes nothing', async () => {
    const created = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'eight' }),
      ...files(8),
    ]);
    expect(created.status, created.text).toBe(200);
    const kept = created.body.attachments.map((a: { id: string }) => ({ id: a.id }));
    const written = await attachmentWrites(async () => {
      // The 8 kept ones listed, 3 new files without metadata; then 3 new files and no attachments array at all.
      for (const json of [{ attachments: kept }, { content: 'more' }]) {
        const edit = await botMultipart(f, 'PATCH', `/channels/${f.generalId}/messages/${created.body.id}`, [
          payload(json),
          ...files(3),
        ]);
        expect([edit.status, edit.body]).toEqual([400, TOO_MANY]);
      }
    });
    expect(written).toEqual([]);
    const after = await botCall(f, 'GET', `/channels/${f.generalId}/messages/${created.body.id}`);
    expect([after.body.content, after.body.attachments.length]).toEqual(['eight', 8]);
  });

  it('an edit with files and no attachments array adds them to the ones the message has (published)', async () => {
    const created = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'two' }),
      ...files(2),
    ]);
    const edit = await botMultipart(f, 'PATCH', `/channels/${f.generalId}/messages/${created.body.id}`, [
      payload({ content: 'three' }),
      { name: 'files[0]', filename: 'new.txt', type: 'text/plain', body: 'new' },
    ]);
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.attachments.map((a: { filename: string }) => a.filename)).toEqual(['f0.txt', 'f1.txt', 'new.txt']);
  });

  it('a refused message (a reply to an unknown message) stores none of its files', async () => {
    const written = await attachmentWrites(async () => {
      const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
        payload({ content: 'reply', message_reference: { message_id: '123456789012345678' } }),
        ...files(2),
      ]);
      expect(response.body.errors.message_reference._errors[0].code).toBe('REPLIES_UNKNOWN_MESSAGE');
    });
    expect(written).toEqual([]);
  });
});

describe('attachment file names', () => {
  /** name sent → filename stored and returned (the published sanitising: path parts, `\` and punctuation go). */
  const CASES: Array<[string, string]> = [
    ['../../../../etc/passwd', 'etc_passwd'],
    ['/etc/passwd', 'etc_passwd'],
    ['..\\..\\windows\\system.ini', 'windowssystem.ini'],
    ['C:\\Users\\me\\x.png', 'CUsersmex.png'],
    ['hello (world).png', 'hello_world.png'],
    ['my file.txt', 'my_file.txt'],
    ['_hidden.txt', 'hidden.txt'],
    ['.bashrc', 'bashrc'],
    ['résumé.pdf', 'resume.pdf'],
    ['x.html', 'x.html'],
    ['SPOILER_cat.png', 'SPOILER_cat.png'],
    ['файл', 'unknown'],
    ['../..', 'unknown'],
  ];

  it('names of uploaded parts are sanitised; the URL ends in the sanitised name', async () => {
    const parts = CASES.map(([sent], i) => ({
      name: `files[${i}]`,
      filename: sent,
      type: 'text/plain',
      body: `n${i}`,
    }));
    // Two messages: at most 10 files each.
    const first = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'names 1' }),
      ...parts.slice(0, 10),
    ]);
    const second = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'names 2' }),
      ...parts.slice(10).map((part, i) => ({ ...part, name: `files[${i}]` })),
    ]);
    expect([first.status, second.status], first.text + second.text).toEqual([200, 200]);
    const attachments = [...first.body.attachments, ...second.body.attachments];
    expect(attachments.map((a: { filename: string }) => a.filename)).toEqual(CASES.map(([, stored]) => stored));
    for (const attachment of attachments)
      expect(new URL(attachment.url).pathname.endsWith(`/${attachment.filename}`)).toBe(true);
    // The spoiler prefix still counts after sanitising.
    expect(attachments[10].flags & 8).toBe(8);
  });

  it('a name given in the attachments array is sanitised the same way', async () => {
    const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'meta', attachments: [{ id: 0, filename: '../../x.html' }] }),
      { name: 'files[0]', filename: 'ignored.txt', type: 'text/plain', body: 'x' },
    ]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.attachments[0].filename).toBe('x.html');
  });

  it('a name that loses letters outside ASCII keeps the original as the title (unless one was given)', async () => {
    const response = await botMultipart(f, 'POST', `/channels/${f.generalId}/messages`, [
      payload({ content: 'titles', attachments: [{ id: 0 }, { id: 1, title: 'Given' }, { id: 2 }] }),
      { name: 'files[0]', filename: 'dir/отчёт.txt', type: 'text/plain', body: 'a' },
      { name: 'files[1]', filename: 'отчёт.txt', type: 'text/plain', body: 'b' },
      { name: 'files[2]', filename: '../plain name.txt', type: 'text/plain', body: 'c' },
    ]);
    expect(response.status, response.text).toBe(200);
    const [a, b, c] = response.body.attachments;
    expect([a.filename, a.title]).toEqual(['dir_.txt', 'отчёт.txt']);
    expect([b.filename, b.title]).toEqual(['txt', 'Given']);
    expect([c.filename, c.title]).toEqual(['plain_name.txt', undefined]);
  });

  it('files uploaded through a modal get sanitised names too', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const command = await openModal(f, session, 'upload', {
        custom_id: 'files',
        title: 'Files',
        components: [{ type: 18, label: 'File', component: { type: 19, custom_id: 'file' } }],
      });
      const submitted = await submitWithFiles(
        f,
        { type: 5, user_id: f.memberId, interaction_id: command.id, values: {} },
        [{ customId: 'file', filename: '../../../etc/passwd', type: 'text/plain', body: Buffer.from('root') }],
      );
      expect(submitted.status, submitted.text).toBe(200);
      const submission = await session.next('INTERACTION_CREATE');
      const attachment = Object.values(submission.data.resolved.attachments)[0] as { filename: string; url: string };
      expect(attachment.filename).toBe('etc_passwd');
      expect((await request(attachment.url)).text).toBe('root');
    } finally {
      session.close();
    }
  });

  it('a modal submission with a file for no File Upload component is refused, not silently dropped', async () => {
    const session = await botSession(f, INTENTS.GUILDS);
    try {
      const modal = {
        custom_id: 'named',
        title: 'Named',
        components: [{ type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1, required: false } }],
      };
      const command = await openModal(f, session, 'upload2', modal);
      const submitted = await submitWithFiles(
        f,
        { type: 5, user_id: f.memberId, interaction_id: command.id, values: {} },
        [{ customId: 'nowhere', filename: 'x.txt', type: 'text/plain', body: Buffer.from('x') }],
      );
      expect(submitted.status, submitted.text).toBe(400);
      expect(submitted.body.errors.values.nowhere._errors[0].code).toBe('COMPONENT_UNKNOWN');
    } finally {
      session.close();
    }
  });
});
