/**
 * File bytes and extracted text in the uploads bucket (S3 on AWS, s3rver locally). A failure to reach
 * the store, or a throttle or 5xx from it, becomes StorageUnavailableError (the upload's 503); a
 * missing object is `undefined`.
 */
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { StorageUnavailableError, type ObjectStore } from '../app/file-ports';

function isMissing(err: unknown): boolean {
  return (
    err instanceof NoSuchKey ||
    (err as { name?: string })?.name === 'NoSuchKey' ||
    (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404
  );
}

/** Errors that are the store's state, not the request's: the network, throttling, 5xx. */
function isUnavailable(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  if (status === undefined) return true; // no HTTP answer at all: connection refused, reset, timeout
  return status >= 500 || status === 429 || (err as { name?: string })?.name === 'SlowDown';
}

/** Runs an SDK call, a failure of the store's state (not the request's) as StorageUnavailableError. */
export async function guarded<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (isUnavailable(err)) throw new StorageUnavailableError(err);
    throw err;
  }
}

export class S3ObjectStore implements ObjectStore {
  constructor(
    protected readonly s3: S3Client,
    protected readonly bucket: string,
  ) {}

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await guarded(() =>
      this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.byteLength })),
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    return guarded(async () => {
      try {
        const res = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
        return Buffer.from(await res.Body!.transformToByteArray());
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await guarded(async () => {
      let token: string | undefined;
      do {
        const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length) await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    });
  }
}
