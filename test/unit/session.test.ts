import { describe, expect, it } from 'vitest';
import { CONTROL_QUERY_PARAMS, endedAtOf, exportableQueryParams, lastActivityOf } from '../../functions/conversations/domain/session';

describe('lastActivityOf = GREATEST(COALESCE(last_message_at, started_at), touch)', () => {
  it('uses started_at when there is no message and the touch is older', () => {
    expect(lastActivityOf({ startedAtUs: 100, lastMessageAtUs: null, touchedAtUs: 50 })).toBe(100);
  });

  it('uses the touch clock when it is the newest', () => {
    expect(lastActivityOf({ startedAtUs: 100, lastMessageAtUs: null, touchedAtUs: 300 })).toBe(300);
    expect(lastActivityOf({ startedAtUs: 100, lastMessageAtUs: 200, touchedAtUs: 300 })).toBe(300);
  });

  it('uses last_message_at when it is the newest', () => {
    expect(lastActivityOf({ startedAtUs: 100, lastMessageAtUs: 500, touchedAtUs: 300 })).toBe(500);
  });

  it('ignores started_at once a message exists (COALESCE, not GREATEST of all three)', () => {
    // A message stamped before the session start (clock skew, import) does not fall back to started_at.
    expect(lastActivityOf({ startedAtUs: 1000, lastMessageAtUs: 200, touchedAtUs: 300 })).toBe(300);
    expect(lastActivityOf({ startedAtUs: 1000, lastMessageAtUs: 200, touchedAtUs: 100 })).toBe(200);
  });

  it('treats a message at time 0 as a message, not as missing', () => {
    expect(lastActivityOf({ startedAtUs: 1000, lastMessageAtUs: 0, touchedAtUs: 0 })).toBe(0);
  });
});

describe('endedAtOf', () => {
  it('is the last message, or the start of a session that never had one', () => {
    expect(endedAtOf({ startedAtUs: 100, lastMessageAtUs: null })).toBe(100);
    expect(endedAtOf({ startedAtUs: 100, lastMessageAtUs: 400 })).toBe(400);
  });
});

describe('exportableQueryParams', () => {
  it('drops the control parameters bt, session and share and keeps the rest in order', () => {
    expect([...CONTROL_QUERY_PARAMS].sort()).toEqual(['bt', 'session', 'share']);
    const params = [
      { name: 'utm_source', value: 'mail' },
      { name: 'bt', value: '1' },
      { name: 'session', value: 'abc' },
      { name: 'ref', value: 'x' },
      { name: 'share', value: 'y' },
      { name: 'utm_source', value: 'again' },
    ];
    expect(exportableQueryParams(params)).toEqual([
      { name: 'utm_source', value: 'mail' },
      { name: 'ref', value: 'x' },
      { name: 'utm_source', value: 'again' },
    ]);
  });

  it('matches names exactly', () => {
    const params = [
      { name: 'BT', value: '1' },
      { name: 'sessions', value: '2' },
      { name: 'share_id', value: '3' },
    ];
    expect(exportableQueryParams(params)).toEqual(params);
  });
});
