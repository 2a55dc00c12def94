import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';

// Plain CommonJS evaluated as the worker, so that it runs the same under tsx and compiled.
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { createPrivateKey, sign } = require('node:crypto');
// On Linux the nice value belongs to the thread: only this one yields to the event loop.
if (process.platform === 'linux') { try { require('node:os').setPriority(10); } catch {} }
const keys = new Map();
parentPort.on('message', ({ id, pem, body }) => {
  try {
    let key = keys.get(pem);
    if (!key) {
      if (keys.size > 100) keys.clear();
      keys.set(pem, (key = createPrivateKey(pem)));
    }
    parentPort.postMessage({ id, sig: sign('sha256', Buffer.from(body, 'utf8'), key).toString('base64url') });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

interface Pending {
  pem: string;
  text: string;
  resolve: (sig: string) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
let broken = false;
let nextId = 0;
const pending = new Map<number, Pending>();

/** Signs whatever the lost thread still had here instead. */
function signPendingHere(): void {
  for (const p of pending.values()) {
    try {
      p.resolve(signNow(p.pem, p.text));
    } catch (err) {
      p.reject(err as Error);
    }
  }
  pending.clear();
}

function signingWorker(): Worker | undefined {
  if (worker || broken) return worker;
  try {
    worker = new Worker(WORKER, { eval: true });
  } catch {
    broken = true;
    return undefined;
  }
  worker.on('message', (m: { id: number; sig?: string; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (!pending.size) worker?.unref();
    if (m.sig !== undefined) p?.resolve(m.sig);
    else p?.reject(new Error(m.error ?? 'signing failed'));
  });
  const lost = () => {
    broken = true;
    worker = undefined;
    signPendingHere();
  };
  worker.on('error', lost);
  worker.on('exit', lost);
  return worker;
}

// Parsing the PEM costs about as much as signing itself; keys are parsed once per key text.
const privateKeys = new Map<string, KeyObject>();

function privateKey(pem: string): KeyObject {
  let key = privateKeys.get(pem);
  if (!key) {
    if (privateKeys.size > 100) privateKeys.clear();
    privateKeys.set(pem, (key = createPrivateKey(pem)));
  }
  return key;
}

/** An RSA-SHA256 signature of the text, base64url, made on the calling thread. */
export function signNow(pem: string, text: string): string {
  return sign('sha256', Buffer.from(text, 'utf8'), privateKey(pem)).toString('base64url');
}

/**
 * The same signature made on a thread of its own. An RSA signature takes about a millisecond of
 * CPU; on libuv's pool the woken thread took the core from the event loop, on which every request
 * waits. This thread runs at a lower priority (Linux), so it signs with the CPU time left over.
 * Falls back to signing here should the thread be unavailable.
 */
export function signInBackground(pem: string, text: string): Promise<string> {
  const w = signingWorker();
  if (!w) return Promise.resolve().then(() => signNow(pem, text));
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    pending.set(id, { pem, text, resolve, reject });
    // Held open only while a signature is owed, like any pending I/O.
    w.ref();
    w.postMessage({ id, pem, body: text });
  });
}
