import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ExportChunkMessage } from '../domain/export-job';
import type { ExportChunkQueue } from '../app/export-ports';

/** The exports queue (SQS; fauxqs locally). */
export class SqsExportChunkQueue implements ExportChunkQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: ExportChunkMessage): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }));
  }
}
