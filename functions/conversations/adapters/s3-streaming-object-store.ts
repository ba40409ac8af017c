/**
 * The uploads bucket as the upload route's store: an ObjectStore that also takes an object as a
 * stream of unknown length. On S3 that is a multipart upload (s3-object-writer.ts); a store that takes
 * a PutObject of unknown length (an S3-protocol server such as s3rver; S3 refuses one) gets one
 * streamed request instead (s3-streamed-put-writer.ts). A module of its own, so only the upload
 * route's function bundles the writers.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { ObjectWriter, StreamingObjectStore } from '../app/file-ports';
import { S3ObjectStore, guarded } from './s3-object-store';
import { S3ObjectWriter } from './s3-object-writer';
import { S3StreamedPutWriter } from './s3-streamed-put-writer';

export class S3StreamingObjectStore extends S3ObjectStore implements StreamingObjectStore {
  constructor(
    s3: S3Client,
    bucket: string,
    private readonly takesUnknownLength: boolean,
  ) {
    super(s3, bucket);
  }

  writer(key: string, contentType: string): ObjectWriter {
    const Writer = this.takesUnknownLength ? S3StreamedPutWriter : S3ObjectWriter;
    return new Writer(this.s3, this.bucket, key, contentType, guarded);
  }
}
