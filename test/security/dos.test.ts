import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';

// Denial of service from the LAN (issue 16, findings 4 and 5): anonymous uploads that fill the
// disk before the 401, too many uploads at once, silent or too many connections.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function tmpBytes(t: TestHub): Promise<{ files: number; bytes: number }> {
  const dir = join(t.dataDir, 'tmp');
  let files = 0;
  let bytes = 0;
  for (const name of await readdir(dir)) {
    const s = await stat(join(dir, name)).catch(() => undefined);
    if (!s?.isFile()) continue;
    files++;
    bytes += s.size;
  }
  return { files, bytes };
}

interface Upload {
  req: ClientRequest;
  response: Promise<{ status: number; body: string } | undefined>;
  /** Sends this many more bytes of the file; false once the server has stopped listening. */
  send(bytes: number): Promise<boolean>;
  finish(): Promise<{ status: number; body: string } | undefined>;
}

const BOUNDARY = '----hearth-upload-test';

/**
 * A multipart upload of one file of `size` bytes declared up front, sent as the test says: so that
 * it can stop half-way and look at the hub in the meantime.
 */
const open: ClientRequest[] = [];

/** Ends the uploads a failed test left half-sent, so that the hub can close. */
function abandonUploads(): void {
  for (const req of open.splice(0)) req.destroy();
}

function startUpload(t: TestHub, path: string, size: number, headers: Record<string, string> = {}, fields: Record<string, string> = {}): Upload {
  const url = new URL(t.url + path);
  const head = Buffer.from(
    Object.entries(fields).map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="media"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(head.length + size + tail.length) } });
  open.push(req);
  let sent = 0;
  let closed = false;
  req.on('error', () => (closed = true));
  req.on('close', () => (closed = true));
  const response = new Promise<{ status: number; body: string } | undefined>((resolve) => {
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    req.on('close', () => setImmediate(() => resolve(undefined)));
  });
  req.write(head);
  const chunk = Buffer.alloc(256 * 1024, 0x41);
  const send = async (bytes: number) => {
    const end = Math.min(size, sent + bytes);
    while (sent < end && !closed) {
      const n = Math.min(chunk.length, end - sent);
      sent += n;
      if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) await Promise.race([once(req, 'drain'), once(req, 'close')]).catch(() => undefined);
    }
    return !closed;
  };
  return {
    req,
    response,
    send,
    async finish() {
      if (await send(size - sent)) req.end(tail);
      return response;
    },
  };
}

/** Waits until the hub answered or its temporary folder holds something, whichever comes first. */
async function answerOrTmpGrowth(t: TestHub, upload: Upload): Promise<{ answered: { status: number; body: string } | undefined; tmp: { files: number; bytes: number } }> {
  let answered: { status: number; body: string } | undefined;
  let done = false;
  void upload.response.then((r) => {
    answered = r;
    done = true;
  });
  for (;;) {
    const tmp = await tmpBytes(t);
    if (done || tmp.bytes > 0) return { answered, tmp };
    await sleep(10);
  }
}

const UPLOAD_PATHS = [
  '/api/media/upload.json',
  '/api/ext/photo/create.json',
  '/api/statuses/update_with_media.json',
  '/api/account/update_profile_image.json',
  '/api/z/1.0/item/update',
  '/channel-import',
];

test('an anonymous upload of tens of MB gets 401 as soon as its headers are read, and nothing reaches the disk', { timeout: 60_000 }, async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    for (const path of UPLOAD_PATHS) {
      for (const headers of [{}, { authorization: basic('alice', 'wrong password') }] as Record<string, string>[]) {
        const upload = startUpload(t, path, 40 * 1024 * 1024, headers, { album: 'a', status: 'hello' });
        // Half the file goes out (or as much as the hub takes before it answers).
        void upload.send(20 * 1024 * 1024);
        const { answered, tmp } = await answerOrTmpGrowth(t, upload);
        upload.req.destroy();
        assert.deepEqual(tmp, { files: 0, bytes: 0 }, `${path}: the temporary folder stays empty`);
        assert.equal(answered?.status, 401, `${path} ${Object.keys(headers).length ? 'wrong password' : 'anonymous'}: ${answered?.body}`);
      }
    }
  } finally {
    abandonUploads();
    await t.stop();
  }
});

test('uploads beyond the number allowed at once are refused with 503 and a message; after one ends the next is taken', { timeout: 60_000 }, async () => {
  const t = await startHub({ channels: ['alice'], options: { limits: { maxUploadsInFlight: 1 } } });
  try {
    const auth = { authorization: basic('alice') };
    const first = startUpload(t, '/api/media/upload.json', 4 * 1024 * 1024, auth);
    await first.send(1024 * 1024);
    const { tmp } = await answerOrTmpGrowth(t, first);
    assert.ok(tmp.bytes > 0, 'the first upload is being received');
    const png = await makeImage(20, 20, 'png');
    const second = await t.request('/api/media/upload.json', { as: 'alice', method: 'POST', body: form({}, { media: { data: png, name: 'a.png', type: 'image/png' } }) });
    assert.equal(second.status, 503);
    assert.match((await second.json()).error, /uploads in progress/i);
    const done = await first.finish();
    assert.equal(done?.status, 400, 'the first one is received in full (and is no image)');
    const third = await t.request('/api/media/upload.json', { as: 'alice', method: 'POST', body: form({}, { media: { data: png, name: 'a.png', type: 'image/png' } }) });
    assert.equal(third.status, 200);
  } finally {
    abandonUploads();
    await t.stop();
  }
});

test('uploads whose sizes together pass the temporary space are refused with 503, one larger than it with 413', { timeout: 60_000 }, async () => {
  const MB = 1024 * 1024;
  const t = await startHub({ channels: ['alice'], options: { limits: { maxTmpBytes: 3 * MB, maxUploadBytes: 8 * MB } } });
  try {
    const auth = { authorization: basic('alice') };
    const first = startUpload(t, '/api/media/upload.json', 2 * MB, auth);
    await first.send(MB / 2);
    const { tmp } = await answerOrTmpGrowth(t, first);
    assert.ok(tmp.bytes > 0, 'the first upload is being received');
    const second = startUpload(t, '/api/media/upload.json', 2 * MB, auth);
    const refused = await second.response;
    assert.equal(refused?.status, 503);
    assert.match(refused!.body, /space for uploads in progress/i);
    const huge = startUpload(t, '/api/media/upload.json', 4 * MB, auth);
    const tooLarge = await huge.response;
    assert.equal(tooLarge?.status, 413);
    assert.match(tooLarge!.body, /too large/i);
    assert.equal((await first.finish())?.status, 400);
    const png = await makeImage(20, 20, 'png');
    const after = await t.request('/api/media/upload.json', { as: 'alice', method: 'POST', body: form({}, { media: { data: png, name: 'a.png', type: 'image/png' } }) });
    assert.equal(after.status, 200);
  } finally {
    abandonUploads();
    await t.stop();
  }
});

function openSocket(t: TestHub): Promise<Socket> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(url.port), url.hostname, () => resolve(s));
    s.on('error', reject);
  });
}

/** Resolves when the server closed the socket (any data it sent is returned). */
function closedByServer(s: Socket): Promise<string> {
  let data = '';
  s.on('data', (c: Buffer) => (data += c.toString()));
  s.on('error', () => undefined);
  return new Promise((resolve) => s.on('close', () => resolve(data)));
}

test('a silent connection, and one that never finishes its headers, is closed by the hub', { timeout: 30_000 }, async () => {
  const t = await startHub({ channels: ['alice'], options: { connections: { headersTimeoutMs: 400, requestTimeoutMs: 800 } } });
  try {
    const silent = await openSocket(t);
    const slow = await openSocket(t);
    slow.write('GET /api/z/1.0/version HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const slowBody = await openSocket(t);
    slowBody.write('POST /api/help/test.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\na=');
    await Promise.all([closedByServer(silent), closedByServer(slow), closedByServer(slowBody)]);
    // The hub still answers.
    assert.equal((await t.request('/api/z/1.0/version')).status, 200);
  } finally {
    abandonUploads();
    await t.stop();
  }
});

test('connections beyond the cap are closed at once while an open one keeps working', { timeout: 30_000 }, async () => {
  const t = await startHub({ channels: ['alice'], options: { connections: { maxConnections: 3 } } });
  try {
    const held = await Promise.all([openSocket(t), openSocket(t), openSocket(t)]);
    // Each held connection has sent a request and been answered: the hub counts it as open.
    const ask = (s: Socket) =>
      new Promise<string>((resolve) => {
        let data = '';
        const onData = (c: Buffer) => {
          data += c.toString();
          const end = data.indexOf('\r\n\r\n');
          const length = Number(/content-length: (\d+)/i.exec(data)?.[1]);
          if (end >= 0 && data.length >= end + 4 + length) {
            s.off('data', onData);
            resolve(data);
          }
        };
        s.on('data', onData);
        s.write('GET /api/z/1.0/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      });
    for (const s of held) assert.match(await ask(s), /^HTTP\/1\.1 200/);
    const extra = await openSocket(t);
    extra.write('GET /api/z/1.0/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    assert.equal(await closedByServer(extra), '', 'the fourth connection is closed without an answer');
    assert.match(await ask(held[0]!), /^HTTP\/1\.1 200/, 'a connection already open still works');
    for (const s of held) s.destroy();
  } finally {
    abandonUploads();
    await t.stop();
  }
});
