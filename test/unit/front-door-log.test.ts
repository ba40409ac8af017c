import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it, vi } from 'vitest';
import { frontDoorLog } from '../../functions/server/http-server';

describe('frontDoorLog', () => {
  it('logs each line at the level it names, with its own message, so an alarm on ERROR sees the server failing', () => {
    const logger = new Logger({ serviceName: 'front-door-log-test', logLevel: 'SILENT' });
    const error = vi.spyOn(logger, 'error');
    const warn = vi.spyOn(logger, 'warn');
    const info = vi.spyOn(logger, 'info');
    const log = frontDoorLog(logger, 'upload service');
    log({ level: 'ERROR', message: 'local server error', error: 'boom' });
    log({ level: 'WARN', message: 'slow', ms: 5 });
    log({ level: 'INFO', message: 'request refused by the HTTP parser', status: 400 });
    log({ queue: 'jobs' });
    expect(error).toHaveBeenCalledWith('local server error', { error: 'boom' });
    expect(warn).toHaveBeenCalledWith('slow', { ms: 5 });
    expect(info.mock.calls).toEqual([
      ['request refused by the HTTP parser', { status: 400 }],
      ['upload service', { queue: 'jobs' }],
    ]);
  });
});
