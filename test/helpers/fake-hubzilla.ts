import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny stand-in for a Hubzilla hub that answers the native API calls of a channel import from
 * what a real Hubzilla answered (test/fixtures/hubzilla/import-alice.json, record-import.ts). Any
 * page size and chunk size work: items and file bytes are put together from the recorded answers.
 */

interface Exchange {
  path: string;
  status: number;
  type: string;
  body: any;
}

export interface FakeHubzilla {
  url: string;
  /** The recorded document (its summary, its exchanges). */
  recording: { source: string; summary: any; exchanges: Exchange[] };
  /** Paths asked for, in order. */
  requests: string[];
  /** The bytes of a recorded file, by its Hubzilla hash. */
  fileBytes(hash: string): Buffer;
  /** Holds file downloads until the promise settles (to interrupt an import in the middle). */
  holdFiledata(until: Promise<void> | undefined): void;
  close(): Promise<void>;
}

export const HUBZILLA_USER = 'alice';
export const HUBZILLA_PASSWORD = 'Hearth-Peer-2026!';

export async function startFakeHubzilla(): Promise<FakeHubzilla> {
  const recording = JSON.parse(readFileSync(new URL('../fixtures/hubzilla/import-alice.json', import.meta.url), 'utf8'));
  const exchanges: Exchange[] = recording.exchanges;
  const answer = (path: string) => exchanges.find((e) => e.path.startsWith(`/api/z/1.0/${path}?`))?.body;

  const items = exchanges.filter((e) => e.path.startsWith('/api/z/1.0/item/export_page?')).flatMap((e) => e.body.item ?? []);
  const firstPage = answer('item/export_page');
  const files = new Map<string, { record: Record<string, unknown>; bytes: Buffer }>();
  for (const e of exchanges.filter((x) => x.path.startsWith('/api/z/1.0/filedata?'))) {
    const { content, start, length: _length, ...record } = e.body.attach;
    const data = Buffer.from(content, 'base64');
    const f = files.get(record.hash) ?? { record, bytes: Buffer.alloc(Number(record.filesize)) };
    data.copy(f.bytes, start);
    files.set(record.hash, f);
  }
  const photoAnswers = new Map<string, unknown>();
  for (const e of exchanges.filter((x) => x.path.startsWith('/api/z/1.0/photo?'))) photoAnswers.set(new URLSearchParams(e.path.split('?')[1]).get('photo_id')!, e.body);

  const requests: string[] = [];
  let hold: Promise<void> | undefined;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === '' ? '' : JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://fake');
    requests.push(url.pathname + url.search);
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    if (auth !== `${HUBZILLA_USER}:${HUBZILLA_PASSWORD}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="hubzilla"', 'content-type': 'text/html' });
      return res.end('This api requires login');
    }
    const path = url.pathname.replace(/^\/api\/z\/1\.0\//, '');
    const q = url.searchParams;
    switch (path) {
      case 'verify':
      case 'channel/export/basic':
      case 'files':
      case 'photos':
        return send(res, 200, answer(path));
      case 'item/export_page': {
        const records = Number(q.get('records') || 10);
        const page = Number(q.get('page') || 0);
        const list = items.slice(page * records, page * records + records);
        return send(res, 200, { relocate: firstPage.relocate, items_total: items.length, items_page: records, ...(list.length ? { item: list } : {}) });
      }
      case 'filedata': {
        await hold;
        const f = files.get(q.get('file_id') ?? '');
        if (!f) return send(res, 200, '');
        const start = Number(q.get('start') || 0);
        const chunk = f.bytes.subarray(start, start + (Number(q.get('length')) || f.bytes.length));
        return send(res, 200, { attach: { ...f.record, content: chunk.toString('base64'), start, length: chunk.length } });
      }
      case 'photo':
        return send(res, 200, photoAnswers.get(q.get('photo_id') ?? '') ?? '');
      default:
        return send(res, 404, { error: 'not implemented' });
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recording,
    requests,
    fileBytes: (hash) => files.get(hash)!.bytes,
    holdFiledata(until) {
      hold = until;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
