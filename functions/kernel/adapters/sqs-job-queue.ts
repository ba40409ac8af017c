import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { JobMessage, JobQueue } from '../app/kernel-ports';

export class SqsJobQueue implements JobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(job: JobMessage, delaySeconds = 0): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job), DelaySeconds: delaySeconds }));
  }
}
