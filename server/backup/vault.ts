import { hkdfSync } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { BackupError, MissingObjectError } from './errors.js';
import { unwrapWithPassphrase, wrapWithPassphrase } from './passphrase-worker.js';
import type { BackupTarget } from './targets/target.js';

/** The target's description of its backups, in clear: whether they are encrypted. */
export const MARKER = 'hearth-backups.json';
/** The key every object is encrypted to, itself encrypted with the owner's passphrase. */
export const KEY_FILE = 'key.age';

/**
 * How objects are stored in a target: as they are, or encrypted in the age format
 * (age-encryption.org/v1, by its authors' library). Each target holds one random X25519 identity,
 * encrypted with the passphrase (scrypt) in key.age; every object is encrypted to that identity,
 * so the slow passphrase step runs once per backup, not once per file. Without the passphrase
 * nothing in the target can be read; with it, the standard age tool can read it too.
 */
export interface Vault {
  readonly encrypted: boolean;
  /** The key that names the database's chunks in an encrypted target (chunks.ts); none in a plain one. */
  readonly chunkKey?: Buffer;
  seal(body: Readable): Promise<Readable>;
  /** The plain bytes of a stored object; a stream that errors when the object was altered. */
  open(body: Readable): Promise<Readable>;
}

const plain: Vault = {
  encrypted: false,
  seal: async (body) => body,
  open: async (body) => body,
};

/** age, loaded when a target is encrypted (not with every start of the hub). */
const age = () => import('age-encryption');

async function ageVault(identity: string): Promise<Vault> {
  const { Decrypter, Encrypter, identityToRecipient } = await age();
  const recipient = await identityToRecipient(identity);
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const decrypter = new Decrypter();
  decrypter.addIdentity(identity);
  return {
    encrypted: true,
    // Derived from the identity, so the same in every backup to the target, and secret as it is.
    chunkKey: Buffer.from(hkdfSync('sha256', identity, Buffer.alloc(0), 'hearth backup chunk names', 32)),
    async seal(body) {
      return Readable.fromWeb((await encrypter.encrypt(Readable.toWeb(body) as ReadableStream<Uint8Array>)) as WebReadableStream<Uint8Array>);
    },
    async open(body) {
      return Readable.fromWeb((await decrypter.decrypt(Readable.toWeb(body) as ReadableStream<Uint8Array>)) as WebReadableStream<Uint8Array>);
    },
  };
}

interface Marker {
  format: 1;
  encrypted: boolean;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function readMarker(target: BackupTarget): Promise<Marker | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readAll(await target.read(MARKER));
  } catch (err) {
    if (err instanceof MissingObjectError) return undefined;
    throw err;
  }
  try {
    const m = JSON.parse(bytes.toString('utf8')) as Marker;
    if (m.format === 1 && typeof m.encrypted === 'boolean') return m;
  } catch {
    // told below
  }
  throw new BackupError(`${MARKER} in ${target.description} is damaged`);
}

async function openKey(target: BackupTarget, passphrase: string): Promise<Vault> {
  let wrapped: Buffer;
  try {
    wrapped = await readAll(await target.read(KEY_FILE));
  } catch (err) {
    if (err instanceof MissingObjectError) throw new BackupError(`the backups in ${target.description} are encrypted, but their key (${KEY_FILE}) is missing`);
    throw err;
  }
  let identity: string;
  try {
    identity = await unwrapWithPassphrase(wrapped, passphrase);
  } catch {
    throw new BackupError(`the passphrase does not open the backups in ${target.description} (they were made with another one, or ${KEY_FILE} is damaged)`);
  }
  return ageVault(identity);
}

/**
 * The vault of a target that holds backups already; for a new target (when `create`), sets one up:
 * encrypted when there is a passphrase, which a target off this machine must have.
 */
export async function openVault(target: BackupTarget, passphrase: string | undefined, opts: { create: boolean }): Promise<Vault> {
  const marker = await readMarker(target);
  if (!marker) {
    if (!opts.create) throw new BackupError(`there are no Hearth backups in ${target.description}`);
    if (!passphrase && target.leavesMachine) throw new BackupError(`backups to ${target.description} leave this machine, so they are encrypted: set a passphrase (Settings → Backups, or HEARTH_BACKUP_PASSPHRASE)`);
    let vault = plain;
    if (passphrase) {
      const identity = await (await age()).generateIdentity();
      await target.write(KEY_FILE, Readable.from([Buffer.from(await wrapWithPassphrase(identity, passphrase))]));
      vault = await ageVault(identity);
    }
    // Written last: a target with a marker has its key.
    await target.write(MARKER, Readable.from([Buffer.from(JSON.stringify({ format: 1, encrypted: Boolean(passphrase) } satisfies Marker) + '\n')]));
    return vault;
  }
  if (!marker.encrypted) {
    if (target.leavesMachine) throw new BackupError(`the backups in ${target.description} are not encrypted, and backups that leave this machine must be`);
    if (passphrase && opts.create) throw new BackupError(`the backups in ${target.description} are not encrypted; to have them encrypted with the passphrase, back up to a new folder`);
    return plain;
  }
  if (!passphrase) throw new BackupError(`the backups in ${target.description} are encrypted: the passphrase is needed (Settings → Backups, or HEARTH_BACKUP_PASSPHRASE)`);
  return openKey(target, passphrase);
}

export { readAll };

/** Whether the backups in a target are encrypted; undefined when it holds none. */
export async function isEncrypted(target: BackupTarget): Promise<boolean | undefined> {
  return (await readMarker(target))?.encrypted;
}
