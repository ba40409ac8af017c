import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ResponseRunMessage, ResponseRunQueue } from '../app/chat-ports';

/** The queue of background responses (SQS; the local queue locally). */
export class SqsResponseRunQueue implements ResponseRunQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: ResponseRunMessage, delaySeconds?: number): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), ...(delaySeconds ? { DelaySeconds: delaySeconds } : {}) }),
    );
  }
}
