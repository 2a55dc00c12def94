import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, ok } from '../helpers/compat.js';
import { form, makeImage } from '../helpers/media.js';

const API = '/api/z/1.0';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
});

after(() => t.stop());

interface Attach {
  hash: string;
  filename: string;
  folder: string;
  is_dir: string;
  filesize: string;
  filetype: string;
  display_path: string;
}

const upload = (as: string | undefined, name: string, data: string | Uint8Array, fields: Record<string, string> = {}) =>
  call<{ success: boolean; attach: Attach }>(t, `${API}/file/upload`, { as, body: form(fields, { file: { data, name, type: 'text/plain' } }) });

const listing = async (as: string) => (await ok<{ results: Attach[] }>(t, `${API}/files`, { as })).results;

const download = async (as: string | undefined, hash: string) => {
  const a = await call<{ attach: { content: string } }>(t, `${API}/filedata?file_id=${hash}`, { as });
  return { status: a.status, text: a.status === 200 ? Buffer.from(a.body.attach.content, 'base64').toString() : '' };
};

test('file/folder creates nested folders; file/upload stores a file in one; files lists them; filedata reads it back', async () => {
  const docs = await call<{ attach: Attach }>(t, `${API}/file/folder`, { as: 'alice', form: { name: 'Documents' } });
  assert.equal(docs.status, 200, docs.text);
  assert.equal(docs.body.attach.is_dir, '1');
  assert.equal(docs.body.attach.folder, '');
  const taxes = await ok<{ attach: Attach }>(t, `${API}/file/folder`, { as: 'alice', form: { name: 'Taxes 2026', folder: docs.body.attach.hash } });
  assert.equal(taxes.attach.folder, docs.body.attach.hash);
  assert.equal(taxes.attach.display_path, 'Documents/Taxes 2026');

  const up = await upload('alice', 'receipt.txt', 'paid in full', { folder: taxes.attach.hash });
  assert.equal(up.status, 200, up.text);
  assert.equal(up.body.attach.filename, 'receipt.txt');
  assert.equal(up.body.attach.folder, taxes.attach.hash);
  assert.equal(up.body.attach.filesize, '12');
  const top = await upload('alice', 'notes.txt', 'top level');
  assert.equal(top.body.attach.folder, '');

  const files = await listing('alice');
  assert.deepEqual(
    files.map((f) => [f.filename, f.is_dir]).sort(),
    [['Documents', '1'], ['Taxes 2026', '1'], ['notes.txt', '0'], ['receipt.txt', '0']],
  );
  assert.deepEqual(await download('alice', up.body.attach.hash), { status: 200, text: 'paid in full' });
  const again = await upload('alice', 'receipt.txt', 'second copy', { folder: taxes.attach.hash });
  assert.equal(again.body.attach.filename, 'receipt(1).txt', 'a second file of the same name does not replace the first');
});

test('bad input is refused with a 4xx and nothing is stored', async () => {
  const before = (await listing('alice')).length;
  const cases: Array<[string, Parameters<typeof call>[2], number]> = [
    ['file/folder', { as: 'alice', form: { name: '' } }, 400],
    ['file/folder', { as: 'alice', form: { name: '  ' } }, 400],
    ['file/folder', { as: 'alice', form: { name: 'a/b' } }, 400],
    ['file/folder', { as: 'alice', form: { name: '..' } }, 400],
    ['file/folder', { as: 'alice', form: { name: 'Documents' } }, 409],
    ['file/folder', { as: 'alice', form: { name: 'x', folder: 'f'.repeat(64) } }, 404],
    ['file/upload', { as: 'alice', form: { folder: '' } }, 400],
    ['file/delete', { as: 'alice', form: {} }, 400],
    ['file/delete', { as: 'alice', form: { file_id: '0'.repeat(64) } }, 404],
  ];
  for (const [path, opts, status] of cases) {
    const a = await call(t, `${API}/${path}`, opts);
    assert.equal(a.status, status, `${path} ${JSON.stringify(opts?.form)}: ${a.text}`);
  }
  const notes = (await listing('alice')).find((f) => f.filename === 'notes.txt')!;
  const intoFile = await upload('alice', 'x.txt', 'x', { folder: notes.hash });
  assert.equal(intoFile.status, 400, 'a file is not a folder');
  assert.equal((await listing('alice')).length, before);
});

test('deleting a folder deletes everything in it, photos included; the files are gone from the store', async () => {
  const box = await ok<{ attach: Attach }>(t, `${API}/file/folder`, { as: 'alice', form: { name: 'Box' } });
  const inner = await ok<{ attach: Attach }>(t, `${API}/file/folder`, { as: 'alice', form: { name: 'Inner', folder: box.attach.hash } });
  const a = (await upload('alice', 'a.txt', 'a', { folder: inner.attach.hash })).body.attach;
  const pic = await call<{ attach: Attach }>(t, `${API}/file/upload`, { as: 'alice', body: form({ folder: box.attach.hash }, { file: { data: await makeImage(50, 40), name: 'pic.jpg', type: 'image/jpeg' } }) });
  assert.equal(pic.status, 200, pic.text);
  const del = await ok<{ success: boolean; deleted: number }>(t, `${API}/file/delete`, { as: 'alice', form: { file_id: box.attach.hash } });
  assert.equal(del.deleted, 4);
  const names = (await listing('alice')).map((f) => f.filename);
  for (const gone of ['Box', 'Inner', 'a.txt', 'pic.jpg']) assert.ok(!names.includes(gone), `${gone} is gone`);
  assert.equal((await download('alice', a.hash)).status, 404);
  assert.equal((await t.request(`/attach/${a.hash}`, { as: 'alice' })).status, 404);
});

test('attacker: another channel and an anonymous client can neither list, download nor delete the files', async () => {
  const secret = (await upload('alice', 'diary.txt', 'dear diary')).body.attach;
  const folder = (await ok<{ attach: Attach }>(t, `${API}/file/folder`, { as: 'alice', form: { name: 'Private' } })).attach;

  // Listing: bob sees only his own files; anonymous is refused.
  assert.ok(!(await listing('bob')).some((f) => f.hash === secret.hash || f.hash === folder.hash));
  assert.equal((await call(t, `${API}/files`)).status, 401);
  // Downloading through every door.
  assert.equal((await download('bob', secret.hash)).status, 404);
  assert.equal((await download('bob', secret.hash.slice(0, 8))).status, 404, 'not by a prefix either');
  assert.equal((await download(undefined, secret.hash)).status, 401);
  assert.equal((await call(t, `${API}/file?file_id=${secret.hash}`, { as: 'bob' })).status, 404);
  assert.equal((await call(t, `${API}/filemeta?file_id=${secret.hash}`, { as: 'bob' })).status, 404);
  assert.equal((await t.request(`/attach/${secret.hash}`, { as: 'bob' })).status, 404);
  assert.equal((await t.request(`/attach/${secret.hash}`)).status, 404);
  // Writing into her folder, deleting her file or folder.
  assert.equal((await upload('bob', 'planted.txt', 'x', { folder: folder.hash })).status, 404);
  assert.equal((await call(t, `${API}/file/folder`, { as: 'bob', form: { name: 'planted', folder: folder.hash } })).status, 404);
  assert.equal((await call(t, `${API}/file/delete`, { as: 'bob', form: { file_id: secret.hash } })).status, 404);
  assert.equal((await call(t, `${API}/file/delete`, { as: 'bob', form: { file_id: folder.hash } })).status, 404);
  assert.equal((await call(t, `${API}/file/delete`, { form: { file_id: secret.hash } })).status, 401);
  assert.equal((await upload(undefined, 'anon.txt', 'x')).status, 401);

  assert.deepEqual(await download('alice', secret.hash), { status: 200, text: 'dear diary' });
  assert.ok((await listing('alice')).some((f) => f.hash === folder.hash));
});
