import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { ApiRoute } from '../../http/api.js';
import { attachChunk } from '../../serializers/native/attach.js';
import { readChunk, visibleAttachByPrefix } from '../../services/file-access.js';

// Stands in for the chunk while the small rest of the answer is serialised; random, so no file name can contain it.
const PLACEHOLDER = `"${randomBytes(16).toString('hex')}"`;

/**
 * Writes {"attach": record} with the chunk's base64 spliced in as bytes: as a JSON string value it
 * would be scanned for escapes, measured and UTF-8 encoded again — most of the cost of a 1 MiB chunk.
 * Base64 needs no escaping, so the bytes are the same.
 */
function sendChunk(ctx: Context, record: Record<string, string | number>, base64: string): void {
  const json = JSON.stringify({ attach: { ...record, content: PLACEHOLDER.slice(1, -1) } });
  const at = json.indexOf(PLACEHOLDER);
  ctx.status = 200;
  ctx.type = 'application/json';
  const head = json.slice(0, at + 1);
  const tail = json.slice(at + PLACEHOLDER.length - 1);
  const headBytes = Buffer.byteLength(head);
  const body = Buffer.allocUnsafe(headBytes + base64.length + Buffer.byteLength(tail));
  body.write(head, 0);
  body.write(base64, headBytes, 'latin1');
  body.write(tail, headBytes + base64.length);
  ctx.body = body;
}

/**
 * filedata: a chunk of a file, base64 in content. file_id is matched as the beginning of the
 * hash (own files first, then by id); start counts from 0; length 0 or absent reads to the end.
 */
export const filedata: ApiRoute = {
  path: 'filedata',
  methods: ['GET', 'POST'],
  auth: 'user',
  async handler({ ctx, hub, params, user }) {
    const fileId = params.required('file_id');
    const start = params.int('start', { min: 0 }) ?? 0;
    const length = params.int('length', { min: 0 });
    const row = visibleAttachByPrefix(hub, user().channel, fileId);
    if (row.is_dir) return { attach: attachChunk(row, undefined) };
    const chunk = await readChunk(hub, row, start, length);
    sendChunk(ctx, attachChunk(row, chunk), chunk.content);
    return undefined;
  },
};
