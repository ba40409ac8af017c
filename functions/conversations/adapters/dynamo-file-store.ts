/**
 * File records (`FILE#<id>` / `FILE`), listed under their app on gsi2 (`APPFILES#<appId>`, by creation)
 * and on the sparse gsi4 while something is left to clean: `FILEUNREF` (never referenced, by creation)
 * until a chat turn first references the file, `FILEPURGE` (by the time it was marked) once its session
 * or app is removed. A session's attachments are link items in the session's partition
 * (`SESSION#<sessionId>` / `FILE#<fileId>`), so the session's removal deletes them with it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ExtractionState, FileKind, StoredFile } from '../domain/file';
import type { Micros } from '../../kernel/domain/time';
import type { AttachedFile, FileStore } from '../app/file-ports';
import { queryAll, fieldsOrNull, timeIdKey } from '../../kernel/adapters/dynamo-batch';

const key = (id: string) => ({ pk: `FILE#${id}`, sk: 'FILE' });
const linkKey = (sessionId: string, fileId: string) => ({ pk: `SESSION#${sessionId}`, sk: `FILE#${fileId}` });
const UNREFERENCED = 'FILEUNREF';
const PURGE = 'FILEPURGE';
const appFiles = (appId: string) => `APPFILES#${appId}`;

const FIELDS = [
  'id',
  'orgId',
  'appId',
  'uploaderKeyId',
  'consumerId',
  'fileName',
  'mimeType',
  'kind',
  'size',
  'sha256',
  'storageKey',
  'status',
  'extraction',
  'textKey',
  'pages',
  'ocrJobId',
  'createdAtUs',
  'referencedAtUs',
] as const;

const fromItem = (item: Record<string, unknown>) => fieldsOrNull<StoredFile>(item, FIELDS);

export class DynamoFileStore implements FileStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(file: StoredFile): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...key(file.id),
          type: 'file',
          ...file,
          gsi2pk: appFiles(file.appId),
          gsi2sk: timeIdKey(file.createdAtUs, file.id),
          gsi4pk: UNREFERENCED,
          gsi4sk: timeIdKey(file.createdAtUs, file.id),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: string): Promise<StoredFile | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    if (!res.Item || res.Item.status === 'purging') return undefined;
    return fromItem(res.Item);
  }

  async markReady(
    id: string,
    e: Pick<StoredFile, 'extraction' | 'textKey' | 'pages' | 'ocrJobId'>,
    received?: Pick<StoredFile, 'size' | 'sha256' | 'consumerId'>,
  ): Promise<void> {
    // OCR may finish before this write: a file created `ocr_pending` keeps whatever the OCR worker set.
    const ocr = e.extraction === 'ocr_pending';
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: key(id),
        UpdateExpression: `SET #status = :ready, pages = :pages, ocrJobId = :ocrJobId${ocr ? '' : ', extraction = :extraction, textKey = :textKey'}${received ? ', #size = :size, sha256 = :sha256, consumerId = :consumerId' : ''}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status', ...(received ? { '#size': 'size' } : {}) },
        ExpressionAttributeValues: {
          ':ready': 'ready',
          ':pending': 'pending',
          ':pages': e.pages,
          ':ocrJobId': e.ocrJobId,
          ...(ocr ? {} : { ':extraction': e.extraction, ':textKey': e.textKey }),
          ...(received ? { ':size': received.size, ':sha256': received.sha256, ':consumerId': received.consumerId } : {}),
        },
      }),
    );
  }

  async setExtraction(id: string, extraction: ExtractionState, textKey: string | null): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(id),
          UpdateExpression: 'SET extraction = :extraction, textKey = :textKey',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':extraction': extraction, ':textKey': textKey },
        }),
      );
    } catch (err) {
      // The file was removed while OCR ran: nothing to record.
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  async attach(sessionId: string, files: readonly Pick<StoredFile, 'id' | 'kind'>[], atUs: Micros): Promise<void> {
    await Promise.all(
      files.map(async (f) => {
        await this.db.send(
          new PutCommand({ TableName: this.table, Item: { ...linkKey(sessionId, f.id), type: 'file-link', fileId: f.id, kind: f.kind, attachedAtUs: atUs } }),
        );
        try {
          // First reference only; a file marked for removal keeps its FILEPURGE position.
          await this.db.send(
            new UpdateCommand({
              TableName: this.table,
              Key: key(f.id),
              UpdateExpression: 'SET referencedAtUs = :at REMOVE gsi4pk, gsi4sk',
              ConditionExpression: 'attribute_exists(pk) AND #status = :ready AND attribute_type(referencedAtUs, :null)',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':at': atUs, ':ready': 'ready', ':null': 'NULL' },
            }),
          );
        } catch (err) {
          if (!(err instanceof ConditionalCheckFailedException)) throw err;
        }
      }),
    );
  }

  async listAttached(sessionId: string): Promise<AttachedFile[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :file)',
      ExpressionAttributeValues: { ':pk': `SESSION#${sessionId}`, ':file': 'FILE#' },
      ConsistentRead: true,
    });
    return items.map((item) => ({ fileId: String(item.fileId), kind: item.kind as FileKind }));
  }

  async releaseSession(sessionId: string, atUs: Micros): Promise<void> {
    for (const link of await this.listAttached(sessionId)) await this.markForRemoval(link.fileId, atUs);
  }

  async releaseApp(appId: string, atUs: Micros): Promise<void> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': appFiles(appId) },
      ProjectionExpression: 'id',
    });
    for (const item of items) await this.markForRemoval(String(item.id), atUs);
  }

  private async markForRemoval(id: string, atUs: Micros): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(id),
          UpdateExpression: 'SET #status = :purging, gsi4pk = :purge, gsi4sk = :pos REMOVE gsi2pk, gsi2sk',
          ConditionExpression: 'attribute_exists(pk) AND #status <> :purging',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':purging': 'purging', ':purge': PURGE, ':pos': timeIdKey(atUs, id) },
        }),
      );
    } catch (err) {
      // Already marked, or already removed: the removal is under way or done.
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  async listRemovable(unreferencedBeforeUs: Micros, limit: number): Promise<StoredFile[]> {
    const purging = await this.queryGsi4(PURGE, undefined, limit);
    if (purging.length >= limit) return purging;
    return [...purging, ...(await this.queryGsi4(UNREFERENCED, timeIdKey(unreferencedBeforeUs, ''), limit - purging.length))];
  }

  private async queryGsi4(partition: string, before: string | undefined, limit: number): Promise<StoredFile[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi4',
        KeyConditionExpression: before === undefined ? 'gsi4pk = :pk' : 'gsi4pk = :pk AND gsi4sk < :before',
        ExpressionAttributeValues: { ':pk': partition, ...(before === undefined ? {} : { ':before': before }) },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(fromItem);
  }

  async remove(id: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: key(id) }));
  }
}
