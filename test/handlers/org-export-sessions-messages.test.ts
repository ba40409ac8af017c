/**
 * GET /api/v1/org/sessions?include=messages: each row carries its whole transcript (`messages`, `zdr`)
 * exactly as GET /sessions/{id}/messages gives it, paging is the same as without include, and a page
 * stays within the byte budget of a Lambda proxy answer (functions/export/domain/page-budget.ts): it
 * ends early where the next row would break it, and a row that alone breaks it comes with
 * `messages: null`. Every exchange through `p.call` is checked against the OpenAPI document
 * (test/support/openapi-check.ts), so each response here is also a SessionRow as documented.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { appendToSession, deleteMessage, editMessage, startSession, type TurnMessage } from '../../functions/chat/app/record-session-activity';
import type { Message } from '../../functions/conversations/domain/session';
import { MAX_PAGE_BYTES, responseBytes } from '../../functions/export/domain/page-budget';
import { descending, expectError, idsOf, pageThrough, pinnedPlatform, putSession, type Page } from '../support/export-api';
import { patchSettings } from '../support/chat';
import { seedSessions } from '../support/imports';
import { openApiMismatch } from '../support/openapi-check';
import type { Fixture, TestPlatform, TestResponse } from '../support/platform';

const SESSIONS = '/api/v1/org/sessions';
const WITH_MESSAGES = `${SESSIONS}?include=messages`;
const WITH_TOOLS = `${SESSIONS}?include=messages,tool_details`;
const messagesPath = (id: string, query = '') => `${SESSIONS}/${id}/messages${query}`;

/** One message's content at its maximum (256 KiB of UTF-8), all quotes: 4 bytes each once escaped twice. */
const MAX_MESSAGE_BYTES = 256 * 1024;
const quotes = (tag: string) => `${tag}${'"'.repeat(MAX_MESSAGE_BYTES - tag.length)}`;

/** A Lambda function answers API Gateway with at most 6 MB (the proxy result, body escaped inside it). */
const LAMBDA_RESPONSE_BYTES = 6_000_000;

type Row = Record<string, any> & { id: string };

describe('GET /api/v1/org/sessions?include=messages', () => {
  let p: TestPlatform;
  const driver = pinnedPlatform('2026-11-02T10:00:00.000Z', { visibilityDelayMs: 0 }, (started) => (p = started));

  const list = (token: string, path: string) => p.call('GET', path, { token });
  const transcriptOf = (token: string, id: string, tools: boolean) => p.call('GET', messagesPath(id, tools ? '?include=tool_details' : ''), { token });
  const rowsOf = (pages: readonly Page[]): Row[] => pages.flatMap((pg) => pg.data as Row[]);
  const without = (row: Row) => {
    const { messages: _m, zdr: _z, ...rest } = row;
    return rest;
  };

  /** A second app of the fixture's org. */
  const otherApp = async (f: Fixture, name: string): Promise<string> => {
    const res = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };

  /** A session with the given turns, each turn one append (a millisecond apart). */
  const sessionWith = async (appId: string, turns: readonly (readonly TurnMessage[])[], title = ''): Promise<{ id: string; messages: Message[] }> => {
    driver.advance(1);
    const s = await startSession(p.deps, { appId, title });
    const messages: Message[] = [];
    for (const t of turns) {
      driver.advance(1);
      messages.push(...(await appendToSession(p.deps, { sessionId: s.id, messages: t })).messages);
    }
    return { id: s.id, messages };
  };

  /**
   * Every row of the pages equals the plain row of the same session plus exactly what the messages
   * endpoint answers for it (`messages`, `zdr`), with or without tool markers.
   */
  const expectRowsMatchEndpoint = async (token: string, rows: readonly Row[], plain: readonly Row[], tools: boolean) => {
    expect(rows.map((r) => r.id)).toEqual(plain.map((r) => r.id));
    for (const [i, row] of rows.entries()) {
      expect(Object.keys(row).sort()).toEqual([...Object.keys(plain[i]!), 'messages', 'zdr'].sort());
      expect(without(row), row.id).toEqual(plain[i]);
      const res = await transcriptOf(token, row.id, tools);
      expect(res.status, res.text).toBe(200);
      expect(row.messages, `${row.id} tools=${tools}`).toEqual(res.body.data.messages);
      expect(row.zdr, row.id).toBe(res.body.data.zdr);
    }
  };

  /** The byte budget of one page: its rows as the proxy result carries them, and the whole answer. */
  const expectWithinBudget = (res: { text: string; body: Page }) => {
    const rowBytes = res.body.data.reduce((sum: number, row: unknown) => sum + responseBytes(row), 0);
    expect(rowBytes).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    // The envelope (`data`, `pagination`) adds a few hundred bytes at most.
    expect(responseBytes(res.body)).toBeLessThanOrEqual(MAX_PAGE_BYTES + 1_000);
    const proxyResult = JSON.stringify({ statusCode: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: res.text });
    expect(Buffer.byteLength(proxyResult, 'utf8')).toBeLessThan(LAMBDA_RESPONSE_BYTES);
    return rowBytes;
  };

  describe('rows', () => {
    it('carry exactly the messages and zdr of the messages endpoint, with and without tool_details; without include neither field', async () => {
      const f = await p.fixture();
      const tooled = await sessionWith(
        f.appId,
        [
          [
            { role: 'user', content: 'find me a flight' },
            {
              role: 'assistant',
              content: 'searching',
              tools: [
                { id: 'call_1', name: 'search', type: 'function', success: true },
                { type: 'custom_component', component: 'FlightCard' },
              ],
            },
          ],
          [
            { role: 'user', content: 'and a hotel' },
            { role: 'assistant', content: 'no tools here', tools: [] },
          ],
        ],
        'tooled',
      );
      // A client tool round trip: the tool message's output never reaches the export.
      const clientTool = await sessionWith(f.appId, [
        [
          { role: 'user', content: 'what time is it' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'clock', arguments: '{}' }], tools: [{ id: 'c1', name: 'clock', type: 'function' }] },
          { role: 'tool', content: 'TOOL OUTPUT 12:00', toolCallId: 'c1', tools: [{ id: 'c1', name: 'clock', type: 'function', success: true }] },
          { role: 'assistant', content: 'It is noon.' },
        ],
      ]);
      const plainTalk = await sessionWith(f.appId, [[{ role: 'user', content: 'hello "quoted" \\ ünïcødé 🚀' }], [{ role: 'assistant', content: 'hi' }]]);
      driver.advance(1);
      const empty = await startSession(p.deps, { appId: f.appId, title: 'no messages' });
      // A turn a crash left open: hidden here as on the messages endpoint.
      const open = await sessionWith(f.appId, [[{ role: 'user', content: 'kept' }]]);
      driver.advance(1);
      const turnUs = p.deps.clock.nowUs();
      expect(await p.deps.sessions.touch(open.id, turnUs, undefined, { openTurnId: 'turn-left-open' })).toBe(true);
      await p.deps.sessions.putMessage({
        id: randomUUID(),
        sessionId: open.id,
        role: 'assistant',
        content: 'HALF WRITTEN',
        createdAtUs: turnUs,
        turnId: 'turn-left-open',
      });
      // A session of another app of the org.
      const secondApp = await otherApp(f, 'Second');
      const other = await sessionWith(secondApp, [[{ role: 'user', content: 'from the second app', tools: [{ name: 'n' }] }]]);
      const all = [tooled.id, clientTool.id, plainTalk.id, empty.id, open.id, other.id];

      const plain = await list(f.orgKey, SESSIONS);
      expect(plain.status, plain.text).toBe(200);
      expect(new Set(idsOf(plain))).toEqual(new Set(all));
      for (const row of plain.body.data) {
        expect(row).not.toHaveProperty('messages');
        expect(row).not.toHaveProperty('zdr');
      }

      for (const [path, tools] of [
        [WITH_MESSAGES, false],
        [WITH_TOOLS, true],
        [`${SESSIONS}?include=tool_details,messages`, true],
        [`${SESSIONS}?include=messages,messages`, false],
      ] as const) {
        const res = await list(f.orgKey, path);
        expect(res.status, res.text).toBe(200);
        expect(res.body.pagination).toEqual({ next_cursor: expect.any(String), has_more: false, limit: 50 });
        await expectRowsMatchEndpoint(f.orgKey, res.body.data, plain.body.data, tools);
        expect(res.text).not.toContain('TOOL OUTPUT');
        expect(res.text).not.toContain('HALF WRITTEN');
        const byId = new Map<string, Row>(res.body.data.map((r: Row) => [r.id, r]));
        expect(byId.get(empty.id)!.messages).toEqual([]);
        expect(byId.get(open.id)!.messages.map((m: { content: string }) => m.content)).toEqual(['kept']);
        const [q, searching, noTools, hotel] = [...byId.get(tooled.id)!.messages].sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
        expect([q, searching, noTools, hotel].map((m) => m.id).sort()).toEqual(tooled.messages.map((m) => m.id).sort());
        const markers = byId.get(tooled.id)!.messages.filter((m: object) => 'tools' in m);
        if (tools) {
          expect(markers.map((m: { tools: unknown }) => m.tools)).toEqual([
            [
              { id: 'call_1', name: 'search', type: 'function', success: true },
              { type: 'custom_component', component: 'FlightCard' },
            ],
          ]);
          const toolMessage = byId.get(clientTool.id)!.messages.find((m: { role: string }) => m.role === 'tool');
          expect(toolMessage).toMatchObject({ content: '', tools: [{ id: 'c1', name: 'clock', type: 'function', success: true }] });
        } else {
          expect(markers).toEqual([]);
          for (const r of res.body.data) for (const m of r.messages) expect(Object.keys(m).sort()).toEqual(['content', 'created_at', 'id', 'role']);
        }
        for (const r of res.body.data) expect(r.zdr).toBe(false);
      }
    });

    it('a Zero Data Retention app’s rows: messages [] and zdr true; the other apps’ rows keep theirs', async () => {
      const f = await p.fixture();
      const zdrApp = await otherApp(f, 'ZDR');
      const kept = await sessionWith(f.appId, [[{ role: 'user', content: 'kept content' }]]);
      const before = await sessionWith(zdrApp, [[{ role: 'user', content: 'WRITTEN BEFORE ZDR', tools: [{ name: 'x' }] }]]);
      await patchSettings(p, zdrApp, { zeroDataRetention: true });
      // Written after: nothing is stored, the session still is.
      const after = await sessionWith(zdrApp, [[{ role: 'user', content: 'WRITTEN UNDER ZDR' }]]);
      driver.advance(1);
      const plain = await list(f.orgKey, SESSIONS);

      for (const [path, tools] of [
        [WITH_MESSAGES, false],
        [WITH_TOOLS, true],
      ] as const) {
        const res = await list(f.orgKey, path);
        expect(res.status, res.text).toBe(200);
        await expectRowsMatchEndpoint(f.orgKey, res.body.data, plain.body.data, tools);
        const byId = new Map<string, Row>(res.body.data.map((r: Row) => [r.id, r]));
        for (const id of [before.id, after.id]) expect(byId.get(id)).toMatchObject({ messages: [], zdr: true, app_id: zdrApp });
        expect(byId.get(kept.id)).toMatchObject({ zdr: false, messages: [{ content: 'kept content' }] });
        // Neither message of the ZDR app is anywhere in the rows (the cursor is base64url: it may spell anything).
        expect(JSON.stringify(res.body.data)).not.toContain('WRITTEN');
      }
      // Filtered to the ZDR app alone.
      const only = await list(f.orgKey, `${WITH_MESSAGES}&app_id=${zdrApp}`);
      expect(only.body.data.map((r: Row) => [r.id, r.messages, r.zdr])).toEqual([
        [after.id, [], true],
        [before.id, [], true],
      ]);
    });

    it('reflects an edited and a deleted message: the row carries the whole transcript as it is now', async () => {
      const f = await p.fixture();
      const s = await sessionWith(f.appId, [
        [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'second', tools: [{ id: 't', name: 'lookup', type: 'function', success: false }] },
        ],
        [{ role: 'user', content: 'third' }],
      ]);
      const quiet = await sessionWith(f.appId, [[{ role: 'user', content: 'untouched' }]]);
      const [m0, m1, m2] = s.messages;
      const first = await list(f.orgKey, WITH_MESSAGES);
      expect(idsOf(first)).toEqual([quiet.id, s.id]);
      expect(first.body.data[1].messages.map((m: { content: string }) => m.content)).toEqual(['first', 'second', 'third']);
      const checkpoint: string = first.body.data[0].last_activity_at;

      driver.advance(5);
      await editMessage(p.deps, { sessionId: s.id, messageId: m0!.id, content: 'first, edited' });
      driver.advance(5);
      await deleteMessage(p.deps, { sessionId: s.id, messageId: m1!.id });
      driver.advance(5);

      const plain = await list(f.orgKey, SESSIONS);
      for (const [path, tools] of [
        [WITH_MESSAGES, false],
        [WITH_TOOLS, true],
      ] as const) {
        const res = await list(f.orgKey, path);
        // The changes moved the session to the top, with its whole transcript (not only what changed).
        expect(idsOf(res)).toEqual([s.id, quiet.id]);
        await expectRowsMatchEndpoint(f.orgKey, res.body.data, plain.body.data, tools);
        expect(res.body.data[0].messages.map((m: { id: string; content: string }) => [m.id, m.content])).toEqual([
          [m0!.id, 'first, edited'],
          [m2!.id, 'third'],
        ]);
        expect(res.text).not.toContain('lookup');
      }
      // An incremental run from the checkpoint finds the changed session whole.
      const incremental = await list(f.orgKey, `${WITH_MESSAGES}&updated_after=${checkpoint}`);
      expect(incremental.body.data[0]).toMatchObject({ id: s.id, messages: [{ content: 'first, edited' }, { content: 'third' }] });
    });

    // An imported message without an id keeps one derived from its session and position (a re-import
    // gives the same ids): the document shows message ids as opaque strings.
    it('an imported session’s row carries its transcript as the messages endpoint does (ids generated at import)', async () => {
      const f = await p.fixture();
      driver.advance(1);
      const [imported] = await seedSessions(p, f.appId, [{ startedAt: '2026-05-01T00:00:00Z', messages: ['2026-05-01T00:00:01Z', '2026-05-01T00:00:02Z'] }]);
      const plain = await list(f.orgKey, SESSIONS);
      expect(idsOf(plain)).toEqual([imported]);
      const res = await list(f.orgKey, WITH_MESSAGES);
      expect(res.status, res.text).toBe(200);
      await expectRowsMatchEndpoint(f.orgKey, res.body.data, plain.body.data, false);
      expect(res.body.data[0].messages.map((m: { created_at: string }) => m.created_at)).toEqual(['2026-05-01T00:00:01.000Z', '2026-05-01T00:00:02.000Z']);
    });

    it('leaves out a session removed between the index read and its transcript read; the rest of the page is intact', async () => {
      const f = await p.fixture();
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await sessionWith(f.appId, [[{ role: 'user', content: `m${i}` }]])).id);
      const [a, b, victim, c, d] = [...made].reverse();
      const original = p.deps.sessions.transcript.bind(p.deps.sessions);
      const spy = vi.spyOn(p.deps.sessions, 'transcript').mockImplementation(async (id: string) => {
        if (id === victim) await p.deps.sessions.remove(id, p.deps.clock.nowUs());
        return original(id);
      });
      try {
        const res = await list(f.orgKey, `${WITH_MESSAGES}&limit=5`);
        expect(res.status, res.text).toBe(200);
        expect(idsOf(res)).toEqual([a, b, c, d]);
        expect(res.body.pagination.has_more).toBe(false);
        expect(spy).toHaveBeenCalledWith(victim);
      } finally {
        spy.mockRestore();
      }
      expect(idsOf(await list(f.orgKey, SESSIONS))).toEqual([a, b, c, d]);
    });
  });

  describe('paging', () => {
    it('gives the same ids in the same order as without include at limits 1, 2 and 7', async () => {
      const f = await p.fixture();
      const secondApp = await otherApp(f, 'Second');
      await patchSettings(p, secondApp, { zeroDataRetention: true });
      const made: string[] = [];
      for (let i = 0; i < 11; i++) {
        driver.advance(1);
        if (i % 3 === 0) made.push((await putSession(p, f, p.deps.clock.nowUs(), `bare ${i}`)).id);
        else
          made.push(
            (
              await sessionWith(i % 4 === 1 ? secondApp : f.appId, [
                [
                  { role: 'user', content: `q${i}` },
                  { role: 'assistant', content: `a${i}` },
                ],
              ])
            ).id,
          );
      }
      // Some rows share one microsecond: there the id alone orders them.
      const tieUs = driver.msAhead(10_000) + 7;
      for (const id of made.slice(2, 8)) expect(await p.deps.sessions.touch(id, tieUs)).toBe(true);
      driver.jumpTo(tieUs + 1_000);

      const plainFirst = await list(f.orgKey, `${SESSIONS}?limit=100`);
      const expected = idsOf(plainFirst);
      expect(new Set(expected)).toEqual(new Set(made));
      expect(expected.slice(0, 6)).toEqual([...made.slice(2, 8)].sort(descending));

      for (const limit of [1, 2, 7]) {
        const plainPages = await pageThrough(p, SESSIONS, f.orgKey, { limit });
        const pages = await pageThrough(p, WITH_MESSAGES, f.orgKey, { limit });
        expect(
          rowsOf(plainPages).map((r) => r.id),
          `plain, limit ${limit}`,
        ).toEqual(expected);
        expect(
          rowsOf(pages).map((r) => r.id),
          `include=messages, limit ${limit}`,
        ).toEqual(expected);
        // Small rows: no page ends early, and the cursors are those of the plain list.
        expect(pages.map((pg) => pg.data.length)).toEqual(plainPages.map((pg) => pg.data.length));
        expect(pages.map((pg) => pg.pagination)).toEqual(plainPages.map((pg) => pg.pagination));
        for (const [i, row] of rowsOf(pages).entries()) expect(without(row)).toEqual(rowsOf(plainPages)[i]);
      }
    });
  });

  describe('include', () => {
    it('is a 400 with the area A error body for tool_details alone, an unknown value, or include given twice', async () => {
      const f = await p.fixture();
      await sessionWith(f.appId, [[{ role: 'user', content: 'x' }]]);
      const listOf = 'Invalid include: must be a comma-separated list of messages, tool_details';
      for (const [query, message] of [
        ['?include=tool_details', 'Invalid include: tool_details needs messages on the sessions list'],
        ['?include=tool_details,tool_details', 'Invalid include: tool_details needs messages on the sessions list'],
        ['?include=foo', listOf],
        ['?include=messages,foo', listOf],
        ['?include=', listOf],
        ['?include=messages&include=messages', 'Invalid include: must be given once'],
        ['?include=messages&include=tool_details', 'Invalid include: must be given once'],
        ['?limit=5&include=messages,tool_details&include=messages', 'Invalid include: must be given once'],
      ] as const) {
        const res = await list(f.orgKey, `${SESSIONS}${query}`);
        expectError(res, 400, 'bad_request', message);
      }
      // Both together, in either order, are accepted.
      expect((await list(f.orgKey, WITH_TOOLS)).status).toBe(200);
      expect((await list(f.orgKey, `${SESSIONS}?include=tool_details,messages`)).status).toBe(200);
    });
  });

  describe('byte budget', () => {
    it('ends a page early where the next row would break 5,000,000 bytes; the next page continues exactly there', async () => {
      const f = await p.fixture();
      // Oldest first: L light, H two messages of 256 KiB of quotes (about 2.1 MB escaped twice).
      const plan = ['L', 'H', 'L', 'H', 'H', 'L', 'H', 'L'] as const;
      const heavy = new Set<string>();
      for (const [i, kind] of plan.entries()) {
        if (kind === 'H') {
          const s = await sessionWith(f.appId, [[{ role: 'user', content: quotes(`h${i}a`) }], [{ role: 'assistant', content: quotes(`h${i}b`) }]]);
          heavy.add(s.id);
        } else {
          await sessionWith(f.appId, [[{ role: 'user', content: `light ${i}` }]]);
        }
      }
      driver.advance(1);
      const plain = await list(f.orgKey, `${SESSIONS}?limit=100`);
      expect(plain.body.pagination.has_more).toBe(false);
      const expected = idsOf(plain);
      expect(expected).toHaveLength(plan.length);

      const pages: TestResponse[] = [];
      let cursor: string | undefined;
      for (;;) {
        const res = await list(f.orgKey, `${WITH_MESSAGES}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        pages.push(res);
        if (!res.body.pagination.has_more) break;
        cursor = res.body.pagination.next_cursor;
        expect(pages.length).toBeLessThan(10);
      }
      // Newest first: L H L H | H L H L: the third heavy row would break the budget.
      expect(pages.map((pg) => pg.body.data.length)).toEqual([4, 4]);
      expect(pages[0]!.body.pagination).toMatchObject({ has_more: true, limit: 100 });
      expect(pages.flatMap((pg) => idsOf(pg))).toEqual(expected);

      const rows: Row[] = pages.flatMap((pg) => pg.body.data);
      for (const row of rows) {
        expect(row.messages).not.toBeNull();
        expect(row.messages).toHaveLength(heavy.has(row.id) ? 2 : 1);
        if (heavy.has(row.id)) for (const m of row.messages) expect(m.content).toHaveLength(MAX_MESSAGE_BYTES);
      }
      for (const [i, pg] of pages.entries()) {
        const used = expectWithinBudget(pg);
        // It ended early only because the next row would not have fit.
        if (i < pages.length - 1) expect(used + responseBytes(pages[i + 1]!.body.data[0])).toBeGreaterThan(MAX_PAGE_BYTES);
      }
      // The cut cursor is an ordinary cursor of the list: it continues the plain list at the same row.
      const plainRest = await list(f.orgKey, `${SESSIONS}?limit=100&cursor=${encodeURIComponent(pages[0]!.body.pagination.next_cursor)}`);
      expect(idsOf(plainRest)).toEqual(expected.slice(4));

      // With tool_details the same cut; and a limit below the cut is a page of limit rows.
      const tooled = await list(f.orgKey, `${WITH_TOOLS}&limit=100`);
      expect(idsOf(tooled)).toEqual(expected.slice(0, 4));
      expect(tooled.body.pagination.has_more).toBe(true);
      const small = await list(f.orgKey, `${WITH_MESSAGES}&limit=3`);
      expect(idsOf(small)).toEqual(expected.slice(0, 3));
      expectWithinBudget(small);
    }, 120_000);

    it('a session whose transcript alone exceeds the budget comes with messages null; its row stays and its messages endpoint answers', async () => {
      const f = await p.fixture();
      const older = await sessionWith(f.appId, [[{ role: 'user', content: 'older' }]]);
      // Five messages of 256 KiB of quotes: about 5.24 MB escaped twice.
      const huge = await sessionWith(
        f.appId,
        Array.from({ length: 5 }, (_, i) => [{ role: i % 2 ? ('assistant' as const) : ('user' as const), content: quotes(`huge${i}`) }]),
        'huge',
      );
      const newer = await sessionWith(f.appId, [[{ role: 'user', content: 'newer' }]]);
      driver.advance(1);
      const plain = await list(f.orgKey, SESSIONS);
      expect(idsOf(plain)).toEqual([newer.id, huge.id, older.id]);

      const res = await list(f.orgKey, WITH_MESSAGES);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(idsOf(res)).toEqual([newer.id, huge.id, older.id]);
      expect(res.body.pagination.has_more).toBe(false);
      const [n, h, o] = res.body.data as Row[];
      expect(h).toEqual({ ...plain.body.data[1], messages: null, zdr: false });
      expect(n!.messages.map((m: { content: string }) => m.content)).toEqual(['newer']);
      expect(o!.messages.map((m: { content: string }) => m.content)).toEqual(['older']);
      expectWithinBudget(res);
      // The documented row allows `messages: null` (and the check would catch another type).
      expect(openApiMismatch('GET', WITH_MESSAGES, 200, 'application/json', res.text)).toBeUndefined();
      const wrong = JSON.stringify({ ...res.body, data: [{ ...h, messages: 42 }] });
      expect(openApiMismatch('GET', WITH_MESSAGES, 200, 'application/json', wrong)).toMatch(/messages/);

      // Alone on its page (as the first row), the same.
      const pages = await pageThrough(p, WITH_MESSAGES, f.orgKey, { limit: 1 });
      expect(pages.map((pg) => pg.data.map((r: Row) => [r.id, r.messages === null]))).toEqual([[[newer.id, false]], [[huge.id, true]], [[older.id, false]]]);

      // The messages endpoint still answers the whole transcript.
      const whole = await transcriptOf(f.orgKey, huge.id, false);
      expect(whole.status).toBe(200);
      expect(whole.body.data.zdr).toBe(false);
      expect(whole.body.data.messages.map((m: { id: string }) => m.id)).toEqual(huge.messages.map((m) => m.id));
      for (const [i, m] of whole.body.data.messages.entries()) expect(m.content).toBe(quotes(`huge${i}`));
      expect(responseBytes(whole.body.data.messages)).toBeGreaterThan(MAX_PAGE_BYTES);
    }, 120_000);
  });
});
