/**
 * A hostile log, served by a real local HTTP server: HTML, terminal escapes, a 1 MB line,
 * invalid UTF-8, NUL and other controls, CRLF and lone CRs. What the store hands out must
 * be plain text with nothing a viewer could interpret, and bounded in size.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDebusine, type FakeDebusine } from '../support/fake-debusine';
import { isReady, logStoreOn, type StoreUnderTest } from '../support/log-store';
import { LINE_LIMIT } from '../../src/main/logs/line-text';

let fake: FakeDebusine;
let s: StoreUnderTest & { cleanup(): Promise<void> };

beforeAll(async () => {
  fake = await startFakeDebusine();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await s.cleanup();
});

const HOSTILE = Buffer.concat([
  Buffer.from('<script>alert(document.cookie)</script><img src=x onerror=alert(1)>\n'),
  Buffer.from('\u001b[1;31merror:\u001b[0m \u001b]0;pwned title\u0007compile failed\u001b[2J\n'),
  Buffer.from('\u001b]8;;https://evil.example/\u001b\\click me\u001b]8;;\u001b\\\r\n'),
  Buffer.from('nul\u0000bell\u0007back\u0008del\u007fesc\u001b\n'),
  Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x20, 0xc3, 0x28, 0x20, 0xe2, 0x82, 0x0a]),
  Buffer.from('progress 10%\rprogress 100%\r\n'),
  Buffer.from(`long:${'x'.repeat(1_000_000 - 5)}\n`),
  Buffer.from('\u009b31m8-bit CSI\n'),
  Buffer.from('last line without an end of line'),
]);

/** Controls other than tab, and the characters that start escape sequences. */
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

describe('a hostile log', () => {
  it('comes out as plain, safe text', { timeout: 30_000 }, async () => {
    s = logStoreOn(fake);
    fake.artifact(901, [{ path: 'cmd-output.log', content: HOSTILE }]);
    const { handle } = await s.open(901, 'cmd-output.log');
    expect(await s.wait(handle, isReady)).toMatchObject({ state: 'ready', lines: 10 });
    const { lines } = await s.store.lines(handle, 0, 100);
    for (const line of lines) expect(line.text).not.toMatch(UNSAFE);
    expect(lines.map((l) => (l.cut === null ? l.text : `${l.text.slice(0, 10)}…`))).toEqual([
      // Text, not markup: the characters as they are, for the viewer to show as text.
      '<script>alert(document.cookie)</script><img src=x onerror=alert(1)>',
      'error: compile failed',
      'click me',
      'nul\u2400bell\u2407back\u2408del\u2421esc\u241b',
      'bad\ufffd\ufffd \ufffd( \ufffd',
      'progress 10%',
      'progress 100%',
      'long:xxxxx…',
      '\ufffd31m8-bit CSI',
      'last line without an end of line',
    ]);
    const long = lines[7];
    expect(long?.cut).toBe(1_000_000);
    expect(long?.text.length).toBe(LINE_LIMIT);
    expect(lines.filter((l) => l.cut !== null)).toHaveLength(1);
  });

  it('never sends more than about 2 MiB of text in one window', { timeout: 30_000 }, async () => {
    s = logStoreOn(fake);
    const line = `${'y'.repeat(100_000)}\n`;
    fake.artifact(902, [{ path: 'wide.log', content: line.repeat(100) }]);
    const { handle } = await s.open(902, 'wide.log');
    await s.wait(handle, isReady);
    const window = await s.store.lines(handle, 0, 100);
    // 32 lines cut at 64 KiB: the window stops at its budget, the renderer asks on.
    expect(window.lines).toHaveLength(32);
    expect(window.lines.every((l) => l.cut === 100_000)).toBe(true);
    expect(JSON.stringify(window).length).toBeLessThan(2.2 * 2 ** 20);
    const next = await s.store.lines(handle, 32, 100);
    expect(next.from).toBe(32);
    expect(next.lines).toHaveLength(32);
  });
});
