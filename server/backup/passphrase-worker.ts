import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

// Plain CommonJS evaluated as the worker, so that it runs the same under tsx and compiled. age's
// passphrase stanza runs scrypt (a second or more, on purpose) synchronously: here, not in the hub's
// event loop.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.age).then(async (age) => {
  try {
    if (workerData.op === 'wrap') {
      const e = new age.Encrypter();
      e.setPassphrase(workerData.passphrase);
      parentPort.postMessage({ ok: true, bytes: await e.encrypt(workerData.text) });
    } else {
      const d = new age.Decrypter();
      d.addPassphrase(workerData.passphrase);
      parentPort.postMessage({ ok: true, text: await d.decrypt(workerData.bytes, 'text') });
    }
  } catch (err) {
    parentPort.postMessage({ ok: false, message: String((err && err.message) || err) });
  }
});
`;

function run<T>(data: Record<string, unknown>): Promise<T> {
  const age = pathToFileURL(createRequire(import.meta.url).resolve('age-encryption')).href;
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { ...data, age } });
    worker.once('message', (m: { ok: boolean; message?: string } & T) => {
      void worker.terminate();
      if (m.ok) resolve(m);
      else reject(new Error(m.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the passphrase worker stopped (${code})`)));
  });
}

/** Encrypts a short text with a passphrase (age's scrypt recipient). */
export async function wrapWithPassphrase(text: string, passphrase: string): Promise<Uint8Array> {
  return (await run<{ bytes: Uint8Array }>({ op: 'wrap', text, passphrase })).bytes;
}

/** Decrypts what wrapWithPassphrase made; rejects when the passphrase is not the one. */
export async function unwrapWithPassphrase(bytes: Uint8Array, passphrase: string): Promise<string> {
  return (await run<{ text: string }>({ op: 'unwrap', bytes, passphrase })).text;
}
