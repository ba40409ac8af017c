/**
 * An object written to S3 as its bytes arrive, when its length is not known up front (an upload read
 * from a multipart body). An object that ends within one part goes as one PutObject; a longer one as a
 * multipart upload whose parts go out while the next one arrives, one part in flight at a time: two
 * part buffers, filled in turn, are all it holds. A failed or abandoned multipart upload is aborted
 * (the bucket's lifecycle rule removes any a crash leaves behind).
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { ObjectWriter } from '../app/file-ports';

/** Bytes of a part: S3 takes 5 MiB at least (but for the last part); 8 MiB is its own guidance for streams. */
export const STREAMED_PART_BYTES = 8 * 1024 * 1024;

interface Upload {
  readonly id: string;
  readonly parts: { ETag: string; PartNumber: number }[];
}

export class S3ObjectWriter implements ObjectWriter {
  /** The part being filled, and the one sent before it, kept for the part after next. */
  private part: Buffer | undefined;
  private filled = 0;
  private spare: Buffer | undefined;
  private upload: Promise<Upload> | undefined;
  private inFlight: Promise<void> | undefined;
  private given = false;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly key: string,
    private readonly contentType: string,
    /** Turns an SDK failure into the store's error (StorageUnavailableError when the store is down). */
    private readonly guarded: <T>(op: () => Promise<T>) => Promise<T>,
  ) {}

  async write(bytes: Buffer): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      // Reserved, not written: only the bytes copied in take memory.
      this.part ??= this.spare ?? Buffer.allocUnsafeSlow(STREAMED_PART_BYTES);
      this.spare = undefined;
      const copied = bytes.copy(this.part, this.filled, offset);
      this.filled += copied;
      offset += copied;
      if (this.filled < STREAMED_PART_BYTES) continue;
      // One part in flight: the next one fills meanwhile, and waits here for it.
      await this.inFlight;
      const full = this.part;
      this.part = undefined;
      this.filled = 0;
      this.inFlight = this.sendPart(full).then(() => {
        this.spare = full;
      });
      // Awaited by the next write or by end; never an unhandled rejection meanwhile.
      this.inFlight.catch(() => undefined);
    }
  }

  async end(): Promise<void> {
    const last = this.part?.subarray(0, this.filled) ?? Buffer.alloc(0);
    this.part = undefined;
    if (!this.upload) {
      await this.guarded(() =>
        this.s3.send(
          unsigned(new PutObjectCommand({ Bucket: this.bucket, Key: this.key, Body: last, ContentLength: last.length, ContentType: this.contentType })),
        ),
      );
      return;
    }
    await this.inFlight;
    if (last.length > 0) await this.sendPart(last);
    const { id, parts } = await this.upload;
    await this.guarded(() =>
      this.s3.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: id, MultipartUpload: { Parts: parts } })),
    );
    this.given = true;
  }

  async abort(): Promise<void> {
    this.part = undefined;
    this.spare = undefined;
    if (!this.upload || this.given) return;
    this.given = true;
    try {
      await this.inFlight;
    } catch {
      // The part's failure is why the upload is given up.
    }
    try {
      const { id } = await this.upload;
      await this.s3.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: id }));
    } catch {
      // Not started, or the store is down: the lifecycle rule aborts it within a day.
    }
  }

  private async sendPart(body: Buffer): Promise<void> {
    this.upload ??= this.guarded(async () => {
      const res = await this.s3.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, ContentType: this.contentType }));
      return { id: res.UploadId!, parts: [] };
    });
    const upload = await this.upload;
    const PartNumber = upload.parts.length + 1;
    upload.parts.push({ ETag: '', PartNumber });
    const res = await this.guarded(() =>
      this.s3.send(
        unsigned(new UploadPartCommand({ Bucket: this.bucket, Key: this.key, UploadId: upload.id, PartNumber, Body: body, ContentLength: body.length })),
      ),
    );
    upload.parts[PartNumber - 1] = { ETag: res.ETag!, PartNumber };
  }
}

/**
 * Signs a body-carrying command without hashing its payload (`UNSIGNED-PAYLOAD`, which S3 accepts): the
 * SDK would otherwise read every byte once more before sending them, and the connection's TLS already
 * protects them. The body stays a buffer, so the SDK can still retry the request.
 */
function unsigned<C extends PutObjectCommand | UploadPartCommand>(command: C): C {
  // One of the two commands' stacks: the middleware is the same for both.
  (command as PutObjectCommand).middlewareStack.add(
    (next) => async (args) => {
      (args.request as { headers: Record<string, string> }).headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'unsignedPayload' },
  );
  return command;
}
