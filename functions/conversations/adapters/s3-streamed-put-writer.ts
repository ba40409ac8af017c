/**
 * An object written as one PutObject whose body streams as it arrives, its length unknown (a chunked
 * request), for a store that takes one: an S3-protocol server such as s3rver on the local platform.
 * S3 itself wants the length first, so there the object store writes a multipart upload instead
 * (s3-object-writer.ts). Nothing is held: the request's pace is the store's.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ObjectWriter } from '../app/file-ports';

export class S3StreamedPutWriter implements ObjectWriter {
  private body: PassThrough | undefined;
  private put: Promise<unknown> | undefined;
  private settled = false;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly key: string,
    private readonly contentType: string,
    /** Turns an SDK failure into the store's error (StorageUnavailableError when the store is down). */
    private readonly guarded: <T>(op: () => Promise<T>) => Promise<T>,
  ) {}

  async write(bytes: Buffer): Promise<void> {
    if (!this.body) {
      const body = new PassThrough({ highWaterMark: 256 * 1024 });
      // The SDK pipes the body without listening for its errors.
      body.on('error', () => undefined);
      this.body = body;
      this.put = this.guarded(() => this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key, Body: body, ContentType: this.contentType })));
      this.put.catch(() => undefined);
    }
    if (this.body.write(bytes)) return;
    // The store's pace; a store that fails meanwhile fails this write.
    await Promise.race([once(this.body, 'drain'), this.put]);
  }

  async end(): Promise<void> {
    this.settled = true;
    if (!this.body) {
      await this.guarded(() =>
        this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key, Body: Buffer.alloc(0), ContentLength: 0, ContentType: this.contentType })),
      );
      return;
    }
    this.body.end();
    await this.put;
  }

  async abort(): Promise<void> {
    if (!this.body || this.settled) return;
    this.settled = true;
    // Ended rather than cut: the store may keep what it got as the object, which is then removed.
    this.body.end();
    try {
      await this.put;
    } catch {
      // Nothing was stored.
    }
    try {
      await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key }));
    } catch {
      // The store is down: the pending record leads the file-cleanup job to the object.
    }
  }
}
