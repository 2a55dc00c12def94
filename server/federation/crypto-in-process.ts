import { createHash, KeyObject, verify } from 'node:crypto';

/** WebCrypto's hash names and node's. */
const HASHES: Record<string, string> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
const RSA_PKCS1 = 'RSASSA-PKCS1-V1_5';

let installed = false;
const keyObjects = new WeakMap<CryptoKey, KeyObject>();

function algorithmName(algorithm: AlgorithmIdentifier): string | undefined {
  const name = typeof algorithm === 'string' ? algorithm : algorithm?.name;
  return typeof name === 'string' ? name.toUpperCase() : undefined;
}

/** The bytes of a BufferSource, without copying them; undefined for anything else. */
function bytesOf(data: unknown): Buffer | undefined {
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

function keyObjectOf(key: CryptoKey): KeyObject {
  let object = keyObjects.get(key);
  if (!object) keyObjects.set(key, (object = KeyObject.from(key)));
  return object;
}

/**
 * Fedify checks each received activity's Digest and its RSA signature through WebCrypto, whose
 * every call is a job handed to libuv's thread pool and back: on a busy machine each hand-over
 * cost the hub's main thread about 0.3 ms, ten times the hashing and verifying themselves. The
 * same checks, with the same algorithms, the same key and the same answers, are made here in
 * the process at once. Anything but a SHA digest of bytes or an RSASSA-PKCS1-v1_5 check with a
 * public verifying key goes to WebCrypto as before (as does anything node refuses, so errors are
 * WebCrypto's own). Fedify 2.3.6 has no option for it, so `crypto.subtle` is wrapped, once.
 */
export function checkSignaturesInProcess(): void {
  if (installed) return;
  installed = true;
  const subtle = globalThis.crypto.subtle;
  const digest = subtle.digest.bind(subtle);
  const verifyLater = subtle.verify.bind(subtle);

  subtle.digest = (algorithm: AlgorithmIdentifier, data: BufferSource): Promise<ArrayBuffer> => {
    const hash = HASHES[algorithmName(algorithm) ?? ''];
    const bytes = bytesOf(data);
    if (!hash || !bytes) return digest(algorithm, data);
    const out = createHash(hash).update(bytes).digest();
    return Promise.resolve(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer);
  };

  subtle.verify = (algorithm: AlgorithmIdentifier, key: CryptoKey, signature: BufferSource, data: BufferSource): Promise<boolean> => {
    const keyAlgorithm = key?.algorithm as RsaHashedKeyAlgorithm | undefined;
    const hash = HASHES[keyAlgorithm?.hash?.name?.toUpperCase() ?? ''];
    const sig = bytesOf(signature);
    const bytes = bytesOf(data);
    if (
      algorithmName(algorithm) !== RSA_PKCS1 ||
      !(key instanceof CryptoKey) ||
      key.type !== 'public' ||
      keyAlgorithm?.name.toUpperCase() !== RSA_PKCS1 ||
      !key.usages.includes('verify') ||
      !hash ||
      !sig ||
      !bytes
    ) {
      return verifyLater(algorithm, key, signature, data);
    }
    try {
      return Promise.resolve(verify(hash, bytes, keyObjectOf(key), sig));
    } catch {
      return verifyLater(algorithm, key, signature, data);
    }
  };
}
