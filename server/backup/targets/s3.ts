import { AbortMultipartUploadCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { BackupError, MissingObjectError } from '../errors.js';
import type { BackupTarget } from './target.js';
import { parseS3Url, s3AccessFrom, type S3Access } from './s3-address.js';

/**
 * An S3-compatible bucket as a target (AWS, Backblaze B2, MinIO or Garage on a NAS, …). Each
 * object is one PUT (or one multipart upload, completed only when every part arrived), which S3
 * makes visible whole or not at all.
 */
export class S3Target implements BackupTarget {
  readonly leavesMachine = true;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(
    readonly description: string,
    access: S3Access,
  ) {
    const where = parseS3Url(description);
    if (!where) throw new BackupError(`not an S3 address: ${description} (write s3://bucket/prefix)`);
    this.bucket = where.bucket;
    this.prefix = where.prefix;
    const a = s3AccessFrom(access);
    if (!a.accessKeyId || !a.secretAccessKey) throw new BackupError('the S3 access key and secret are needed: set them in Settings → Backups, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
    this.client = new S3Client({
      endpoint: a.endpoint,
      region: a.region,
      credentials: { accessKeyId: a.accessKeyId, secretAccessKey: a.secretAccessKey },
      // Services other than AWS (a NAS, MinIO) mostly serve buckets only as paths.
      forcePathStyle: Boolean(a.endpoint),
      // Checksums only where S3 requires them: not every S3-compatible service reads the framed
      // uploads the SDK sends otherwise. The manifest's SHA-256 of every object stays the proof.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 4,
    });
  }

  private key(name: string): string {
    return this.prefix + name;
  }

  async prepare(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw new BackupError(`cannot reach the bucket ${this.bucket}: ${s3Message(err)}`);
    }
    // Uploads that a killed backup left unfinished: invisible, but stored (and paid for) until aborted.
    const open = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.prefix }));
    for (const upload of open.Uploads ?? []) {
      if (upload.Key && upload.UploadId) await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }));
    }
  }

  async list(prefix: string): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.key(prefix), ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key) names.push(o.Key.slice(this.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return names;
  }

  async read(name: string): Promise<Readable> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
      return res.Body as Readable;
    } catch (err) {
      if (err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404)) throw new MissingObjectError(name);
      throw new BackupError(`reading ${name} from ${this.description} failed: ${s3Message(err)}`);
    }
  }

  async write(name: string, body: Readable): Promise<void> {
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: this.key(name), Body: body }, queueSize: 2, partSize: 8 * 1024 * 1024 });
    try {
      await upload.done();
    } catch (err) {
      throw new BackupError(`writing ${name} to ${this.description} failed: ${s3Message(err)}`);
    }
  }

  async remove(names: string[]): Promise<void> {
    for (let i = 0; i < names.length; i += 1000) {
      const batch = names.slice(i, i + 1000);
      const res = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((n) => ({ Key: this.key(n) })), Quiet: true } }));
      if (res.Errors?.length) throw new BackupError(`removing old objects from ${this.description} failed: ${res.Errors[0]!.Key}: ${res.Errors[0]!.Message}`);
    }
  }

  close(): void {
    this.client.destroy();
  }
}

function s3Message(err: unknown): string {
  if (err instanceof S3ServiceException) return `${err.name}${err.$metadata.httpStatusCode ? ` (HTTP ${err.$metadata.httpStatusCode})` : ''}`;
  return (err as Error).message ?? String(err);
}
