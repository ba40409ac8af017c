import { GetDocumentTextDetectionCommand, StartDocumentTextDetectionCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { TextractOcrEngine, clientRequestTokenOf } from '../../functions/chat/adapters/textract-ocr-engine';

const textract = mockClient(TextractClient);
const OPTS = { bucket: 'uploads-bucket', topicArn: 'arn:aws:sns:eu-west-1:123456789012:ocr', roleArn: 'arn:aws:iam::123456789012:role/textract-publish' };
const FILE_ID = '6f1c2f9e-8a43-4c61-9b77-0d7e3b1f2a10';

describe('TextractOcrEngine', () => {
  beforeEach(() => textract.reset());
  const engine = () => new TextractOcrEngine(new TextractClient({ region: 'eu-west-1' }), OPTS);

  it('starts asynchronous text detection of the stored PDF with the SNS completion channel', async () => {
    textract.on(StartDocumentTextDetectionCommand).resolves({ JobId: 'job-1' });
    expect(await engine().start({ fileId: FILE_ID, storageKey: `files/app/${FILE_ID}/original` })).toEqual({ jobId: 'job-1' });
    expect(textract.commandCalls(StartDocumentTextDetectionCommand).map((c) => c.args[0].input)).toEqual([
      {
        DocumentLocation: { S3Object: { Bucket: 'uploads-bucket', Name: `files/app/${FILE_ID}/original` } },
        NotificationChannel: { SNSTopicArn: OPTS.topicArn, RoleArn: OPTS.roleArn },
        JobTag: FILE_ID,
        ClientRequestToken: FILE_ID,
      },
    ]);
  });

  it('keeps the client request token within Textract pattern and length', () => {
    expect(clientRequestTokenOf('a.b/c'.repeat(30))).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('refuses a file id that cannot travel as the JobTag, before calling Textract', async () => {
    await expect(engine().start({ fileId: 'a/b', storageKey: 'files/app/a/original' })).rejects.toThrow(/JobTag/);
    await expect(engine().start({ fileId: 'x'.repeat(65), storageKey: 'files/app/x/original' })).rejects.toThrow(/JobTag/);
    expect(textract.commandCalls(StartDocumentTextDetectionCommand)).toHaveLength(0);
  });

  it('pages through the results and joins lines per page in order', async () => {
    textract
      .on(GetDocumentTextDetectionCommand, { JobId: 'job-1', MaxResults: 1000, NextToken: undefined })
      .resolves({
        JobStatus: 'SUCCEEDED',
        DocumentMetadata: { Pages: 2 },
        NextToken: 't2',
        Blocks: [
          { BlockType: 'PAGE', Page: 1 },
          { BlockType: 'LINE', Text: 'INVOICE 4711', Page: 1 },
          { BlockType: 'WORD', Text: 'INVOICE', Page: 1 },
        ],
      })
      .on(GetDocumentTextDetectionCommand, { JobId: 'job-1', MaxResults: 1000, NextToken: 't2' })
      .resolves({
        JobStatus: 'SUCCEEDED',
        DocumentMetadata: { Pages: 2 },
        Blocks: [
          { BlockType: 'LINE', Text: 'TOTAL 99 EUR', Page: 1 },
          { BlockType: 'LINE', Text: 'Page two', Page: 2 },
        ],
      });
    expect(await engine().results('job-1')).toEqual({ status: 'SUCCEEDED', text: 'INVOICE 4711\nTOTAL 99 EUR\n\nPage two', pages: 2 });
    expect(textract.commandCalls(GetDocumentTextDetectionCommand).map((c) => c.args[0].input)).toEqual([
      { JobId: 'job-1', MaxResults: 1000, NextToken: undefined },
      { JobId: 'job-1', MaxResults: 1000, NextToken: 't2' },
    ]);
  });

  it('keeps the text of the pages Textract could read when a job partly succeeded', async () => {
    textract.on(GetDocumentTextDetectionCommand).resolves({
      JobStatus: 'PARTIAL_SUCCESS',
      DocumentMetadata: { Pages: 3 },
      Blocks: [
        { BlockType: 'LINE', Text: 'Page one', Page: 1 },
        { BlockType: 'LINE', Text: 'Page three', Page: 3 },
      ],
    });
    expect(await engine().results('job-3')).toEqual({ status: 'SUCCEEDED', text: 'Page one\n\nPage three', pages: 3 });
  });

  it('reports a job that has not succeeded with its status when Textract gives no message', async () => {
    textract.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'IN_PROGRESS' });
    expect(await engine().results('job-4')).toEqual({ status: 'FAILED', message: 'Textract job job-4 is IN_PROGRESS' });
  });

  it('reports a failed job', async () => {
    textract.on(GetDocumentTextDetectionCommand).resolves({ JobStatus: 'FAILED', StatusMessage: 'Unsupported document' });
    expect(await engine().results('job-2')).toEqual({ status: 'FAILED', message: 'Unsupported document' });
  });
});
