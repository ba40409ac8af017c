/**
 * One upload of area B whose bytes are already at hand (a file inline in a Responses request, or
 * fetched from its URL): checked, read and stored as an upload is (upload-steps.ts), every check
 * before the first write.
 */
import { sha256Hex } from '../../kernel/domain/digest';
import type { StoredFile } from '../../conversations/domain/file';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';
import { requireChatSessionOfApp } from './record-session-activity';
import { acceptedUpload, finishUpload, inspectDocument, pendingFile, refuseMismatch, stored, type UploadDeps } from './upload-steps';

export async function uploadFile(
  deps: UploadDeps,
  input: { readonly principal: ChatPrincipal; readonly fileName: string; readonly bytes: Buffer; readonly sessionId?: string },
): Promise<StoredFile> {
  const { principal, fileName, bytes } = input;
  const type = acceptedUpload(fileName, bytes.length);
  refuseMismatch(type, await deps.sniffer.mimeOf(bytes), bytes);

  let consumerId: string | null = null;
  if (input.sessionId !== undefined) {
    consumerId = (await requireChatSessionOfApp(deps, input.sessionId, principal.app.id))?.consumerId ?? null;
  }

  const inspection = await inspectDocument(deps, type.kind, bytes);
  const file = pendingFile(deps, { principal, fileName, type, size: bytes.length, sha256: sha256Hex(bytes), consumerId, inspection });
  await deps.files.create(file);
  await stored(() => deps.objects.put(file.storageKey, bytes, file.mimeType));
  return finishUpload(deps, file, inspection);
}
