/** The snapshot's objects in the platform bucket, and presigned GET URLs for them (S3 on AWS, s3rver locally). */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { gzipSync } from 'node:zlib';
import type { ExportObjects } from '../app/export-ports';

export class S3ExportObjects implements ExportObjects {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async putNdjson(key: string, lines: readonly string[]): Promise<number> {
    const body = gzipSync(lines.length ? `${lines.join('\n')}\n` : '');
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        // A gzip file, not a gzip-encoded response: every client downloads the same bytes (fetch would
        // unpack a Content-Encoding: gzip answer on its own, curl would not).
        ContentType: 'application/gzip',
        ContentLength: body.byteLength,
      }),
    );
    return body.byteLength;
  }

  downloadUrl(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: seconds });
  }
}
