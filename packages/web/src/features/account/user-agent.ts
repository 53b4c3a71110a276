/** Browsers in the order they must be tested: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSERS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /SamsungBrowser\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['iPhone', /iPhone/],
  ['iPad', /iPad/],
  ['Android', /Android/],
  ['ChromeOS', /CrOS/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux/],
];

/**
 * A short, readable name for a session's device: 'Firefox 128 on Windows', 'Safari 17 on iPhone'. Unknown agents
 * are cut to 60 characters; a missing one reads 'Unknown device'.
 */
export function describeUserAgent(userAgent: string | null): string {
  const agent = userAgent?.trim();
  if (!agent) return 'Unknown device';
  const browser = BROWSERS.find(([, pattern]) => pattern.test(agent));
  const system = SYSTEMS.find(([, pattern]) => pattern.test(agent))?.[0];
  if (!browser) {
    if (system) return `Unknown browser on ${system}`;
    return agent.length > 60 ? `${agent.slice(0, 59)}…` : agent;
  }
  const [name, pattern] = browser;
  const version = pattern.exec(agent)?.[1];
  const label = version ? `${name} ${version}` : name;
  return system ? `${label} on ${system}` : label;
}
