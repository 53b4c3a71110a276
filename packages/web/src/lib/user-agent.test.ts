import { describe, expect, it } from 'vitest';
import { describeUserAgent, parseUserAgent } from './user-agent';

describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome 126 on Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.56',
      'Edge 126 on Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox 128 on Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari 17 on iPhone',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      'Safari 17 on macOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36',
      'Chrome 125 on Android',
    ],
    ['curl/8.5.0', 'curl/8.5.0'],
    [null, 'Unknown device'],
    ['   ', 'Unknown device'],
  ])('%s -> %s', (agent, expected) => {
    expect(describeUserAgent(agent)).toBe(expected);
  });

  it('cuts an unknown long agent', () => {
    const long = 'x'.repeat(100);
    expect(describeUserAgent(long)).toBe(`${'x'.repeat(59)}…`);
  });
});

describe('describeUserAgent, the rest of the browsers and systems', () => {
  it.each([
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
      'Samsung Internet 25 on Android',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome 126 on ChromeOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
      'Opera 111 on Windows',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
      'Chrome 126 on iPad',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
      'Firefox 127 on iPhone',
    ],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) SomeBot/1.0', 'Unknown browser on Windows'],
  ])('%s -> %s', (agent, expected) => {
    expect(describeUserAgent(agent)).toBe(expected);
  });

  it('takes the words and the length of the screen that shows it', () => {
    expect(describeUserAgent(null, { missing: 'Unknown' })).toBe('Unknown');
    expect(describeUserAgent(undefined)).toBe('Unknown device');
    expect(describeUserAgent('y'.repeat(41), { maxLength: 40 })).toBe(`${'y'.repeat(39)}…`);
    expect(describeUserAgent('y'.repeat(40), { maxLength: 40 })).toBe('y'.repeat(40));
  });
});

describe('parseUserAgent', () => {
  it('names the browser, its major version and the system', () => {
    expect(
      parseUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      ),
    ).toEqual({ browser: 'Safari', version: '17', system: 'macOS' });
    expect(parseUserAgent('curl/8.5.0')).toEqual({ browser: null, version: null, system: null });
  });
});
