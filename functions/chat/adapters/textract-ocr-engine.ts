/**
 * OCR on AWS: Amazon Textract's asynchronous text detection of a PDF in the uploads bucket. Textract
 * announces the end of a job on the SNS topic (raw delivery to the OCR queue); the OCR worker then
 * reads the results here. No polling of Textract anywhere.
 */
import { GetDocumentTextDetectionCommand, StartDocumentTextDetectionCommand, type Block, type TextractClient } from '@aws-sdk/client-textract';
import type { OcrEngine, OcrInput, OcrResult } from '../../conversations/app/file-ports';

export interface TextractOcrOptions {
  readonly bucket: string;
  /** The topic Textract publishes completions to, and the role it assumes to do so. */
  readonly topicArn: string;
  readonly roleArn: string;
}

/** Textract's ClientRequestToken: 1-64 characters of [a-zA-Z0-9-_]. The file id makes a retried start idempotent. */
export function clientRequestTokenOf(fileId: string): string {
  return fileId.replace(/[^a-zA-Z0-9_-]/g, '').slice(0, 64) || 'file';
}

/** Textract's JobTag: 1-64 characters of [a-zA-Z0-9_.:-]. */
const JOB_TAG = /^[a-zA-Z0-9_.:-]{1,64}$/;

export class TextractOcrEngine implements OcrEngine {
  constructor(
    private readonly client: TextractClient,
    private readonly opts: TextractOcrOptions,
  ) {}

  async start(input: OcrInput): Promise<{ jobId: string }> {
    // The completion names the file only by its JobTag: a shortened or cleaned-up id would lose it.
    if (!JOB_TAG.test(input.fileId)) throw new Error(`file id ${JSON.stringify(input.fileId)} cannot be a Textract JobTag`);
    const res = await this.client.send(
      new StartDocumentTextDetectionCommand({
        DocumentLocation: { S3Object: { Bucket: this.opts.bucket, Name: input.storageKey } },
        NotificationChannel: { SNSTopicArn: this.opts.topicArn, RoleArn: this.opts.roleArn },
        JobTag: input.fileId,
        ClientRequestToken: clientRequestTokenOf(input.fileId),
      }),
    );
    if (!res.JobId) throw new Error('Textract returned no JobId');
    return { jobId: res.JobId };
  }

  async results(jobId: string): Promise<OcrResult> {
    const lines = new Map<number, string[]>();
    let pages = 0;
    let token: string | undefined;
    do {
      const res = await this.client.send(new GetDocumentTextDetectionCommand({ JobId: jobId, MaxResults: 1000, NextToken: token }));
      // PARTIAL_SUCCESS: some pages could not be read; the text of the others is still worth keeping.
      if (res.JobStatus !== 'SUCCEEDED' && res.JobStatus !== 'PARTIAL_SUCCESS') {
        return { status: 'FAILED', message: res.StatusMessage ?? `Textract job ${jobId} is ${res.JobStatus ?? 'unknown'}` };
      }
      pages = res.DocumentMetadata?.Pages ?? pages;
      for (const block of res.Blocks ?? ([] as Block[])) {
        if (block.BlockType !== 'LINE' || block.Text === undefined) continue;
        const page = block.Page ?? 1;
        lines.set(page, [...(lines.get(page) ?? []), block.Text]);
      }
      token = res.NextToken;
    } while (token);
    const text = [...lines.keys()]
      .sort((a, b) => a - b)
      .map((p) => lines.get(p)!.join('\n'))
      .join('\n\n');
    return { status: 'SUCCEEDED', text, pages };
  }
}
