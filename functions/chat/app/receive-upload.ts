/**
 * One upload of area B (`POST /chat/files`) read in one pass as its bytes arrive: each piece is
 * hashed, counted, kept while it is among the first bytes the type check reads, and sent on to object
 * storage, so an image is never held whole (a document is: it is read whole once it has arrived). The
 * pending record is written before the first byte is stored, so a crash leaves nothing that the
 * file-cleanup job does not find. Once the body has arrived, `accept` runs the checks in the order an
 * upload always had (upload-steps.ts) and makes the file ready; an upload refused there, or answered
 * otherwise (`discard`: a replay, a conflict), takes back what it wrote, so the answers and what stays
 * stored are those of checking everything before the first write.
 */
import { sha256Digest } from '../../kernel/domain/digest';
import { acceptedTypeOf, type StoredFile } from '../../conversations/domain/file';
import { StorageUnavailableError, type ObjectWriter, type StreamingObjectStore } from '../../conversations/app/file-ports';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';
import { filePrefix } from './manage-files';
import { requireChatSessionOfApp } from './record-session-activity';
import {
  acceptedUpload,
  finishUpload,
  inspectDocument,
  inspected,
  pendingFile,
  refuseMismatch,
  storageDown,
  stored,
  type UploadDeps,
  type UploadType,
} from './upload-steps';

/** The first bytes kept for the type check; one that reads further reads the stored object back. */
const START_BYTES = 256 * 1024;

export interface ReceivedUpload {
  readonly sha256: string;
  /** The checks, then the file made ready; a refused upload takes back what it wrote first. */
  accept(): Promise<StoredFile>;
  /** Takes back what the upload wrote (it is answered without being accepted). Never throws. */
  discard(): Promise<void>;
}

/** A promise whose outcome is read later, never an unhandled rejection meanwhile. */
function later<T>(promise: Promise<T>): () => Promise<T> {
  const outcome = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return async () => {
    const o = await outcome;
    if (!o.ok) throw o.error;
    return o.value;
  };
}

/** What the pass learns of the bytes: their hash and size, the first of them, and all of a document's. */
class ContentTap {
  private readonly digest = sha256Digest();
  private readonly start = Buffer.allocUnsafe(START_BYTES);
  private readonly whole: Buffer[] | undefined;
  size = 0;

  constructor(keepWhole: boolean) {
    this.whole = keepWhole ? [] : undefined;
  }

  add(bytes: Buffer): void {
    this.digest.update(bytes);
    if (this.size < START_BYTES) bytes.copy(this.start, this.size, 0, Math.min(bytes.length, START_BYTES - this.size));
    this.size += bytes.length;
    this.whole?.push(bytes);
  }

  firstBytes(): Buffer {
    return this.start.subarray(0, Math.min(this.size, START_BYTES));
  }

  wholeBytes(): Buffer | undefined {
    return this.whole && Buffer.concat(this.whole, this.size);
  }

  sha256(): string {
    return this.digest.hex();
  }
}

/** The upload route's deps: its bucket also takes a file as it arrives. */
export type ReceiveDeps = UploadDeps & { readonly objects: StreamingObjectStore };

/** The pending record and the object being written, for an upload of an accepted type. */
function staging(deps: ReceiveDeps, principal: ChatPrincipal, fileName: string, type: UploadType) {
  const file = pendingFile(deps, { principal, fileName, type, size: 0, sha256: '', consumerId: null, inspection: undefined });
  const created = later(deps.files.create(file));
  const writer: ObjectWriter = deps.objects.writer(file.storageKey, type.mimeType);
  // No byte is stored before the record that lets the cleanup job find it.
  const recorded = () =>
    created().then(
      () => true,
      () => false,
    );
  const state = { storeFailure: undefined as { error: unknown } | undefined, stored: false };
  const give = async (op: () => Promise<void>) => {
    if (state.storeFailure || !(await recorded())) return;
    try {
      await op();
    } catch (error) {
      state.storeFailure = { error };
      await writer.abort();
    }
  };
  return {
    file,
    created,
    state,
    write: (bytes: Buffer) => give(() => writer.write(bytes)),
    async end(size: number): Promise<void> {
      // An empty file is refused: nothing of it goes to storage.
      if (size === 0 || !(await recorded())) return writer.abort();
      await give(() => writer.end());
      state.stored = !state.storeFailure;
    },
    async discard(logger: UploadDeps['logger']): Promise<void> {
      await writer.abort();
      try {
        if (state.stored) await deps.objects.deletePrefix(filePrefix(file.storageKey));
        if (await recorded()) await deps.files.remove(file.id);
      } catch (err) {
        // The record stays pending: the file-cleanup job removes it and its bytes.
        logger.warn('A refused upload could not be removed', { fileId: file.id, error: String(err) });
      }
    },
  };
}

export async function receiveUpload(
  deps: ReceiveDeps,
  input: { readonly principal: ChatPrincipal; readonly fileName: string; readonly content: AsyncIterable<Buffer>; readonly sessionId?: string },
): Promise<ReceivedUpload> {
  const { principal, fileName } = input;
  const type = acceptedTypeOf(fileName);
  // Looked up while the bytes arrive; its answer counts only where the checks come to it.
  const session = input.sessionId !== undefined ? later(requireChatSessionOfApp(deps, input.sessionId, principal.app.id)) : undefined;
  const staged = type ? staging(deps, principal, fileName, type) : undefined;
  const tap = new ContentTap(type !== undefined && type.kind !== 'image');
  const discard = async () => {
    await session?.().catch(() => undefined);
    await staged?.discard(deps.logger);
  };
  try {
    for await (const bytes of input.content) {
      tap.add(bytes);
      await staged?.write(bytes);
    }
  } catch (err) {
    // The body was refused: nothing of it stays.
    await discard();
    throw err;
  }
  await staged?.end(tap.size);
  const sha256 = tap.sha256();

  /** What the bytes are: from the first of them, or, when the answer lies further, from the stored object. */
  const detect = async (whole: Buffer | undefined): Promise<string | undefined> => {
    if (whole) return deps.sniffer.mimeOf(whole);
    const fromStart = await deps.sniffer.mimeOfStart(tap.firstBytes(), tap.size);
    if (fromStart) return fromStart.mime;
    const back = staged?.state.stored ? await stored(() => deps.objects.get(staged.file.storageKey)) : undefined;
    return back ? deps.sniffer.mimeOf(back) : storageDown();
  };

  const accept = async (): Promise<StoredFile> => {
    let checked: { type: UploadType; consumerId: string | null; inspection: Awaited<ReturnType<typeof inspectDocument>> };
    try {
      const type = acceptedUpload(fileName, tap.size);
      const whole = tap.wholeBytes();
      refuseMismatch(type, await detect(whole), whole);
      const consumerId = session ? ((await session())?.consumerId ?? null) : null;
      checked = { type, consumerId, inspection: whole ? await inspectDocument(deps, type.kind, whole) : undefined };
    } catch (err) {
      await discard();
      throw err;
    }
    // Accepted: from here on, a failure leaves the record pending, as a write that failed always did.
    const { file, created, state } = staged!;
    await created();
    if (state.storeFailure) {
      if (state.storeFailure.error instanceof StorageUnavailableError) storageDown();
      throw state.storeFailure.error;
    }
    const received = { size: tap.size, sha256, consumerId: checked.consumerId };
    return finishUpload(deps, { ...file, ...received, ...inspected(checked.type.kind, checked.inspection) }, checked.inspection, received);
  };

  return { sha256, accept, discard };
}
