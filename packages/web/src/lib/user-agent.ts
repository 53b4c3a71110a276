/**
 * The web's one reading of a browser's user agent string (sessions on My Account, signatures of a policy version):
 * which browser, which version and which system, enough for a person to recognise their device. The whole string
 * stays available to the screens (in a title), so this only has to be short and right for the common browsers.
 */

/** Browsers in the order they must be tested: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSERS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /SamsungBrowser\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
];

/** Systems in the order they must be tested: iPhones say "Mac OS X", Android and ChromeOS say "Linux". */
const SYSTEMS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['iPhone', /iPhone/],
  ['iPad', /iPad/],
  ['Android', /Android/],
  ['ChromeOS', /CrOS/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux/],
];

export interface UserAgent {
  /** 'Firefox', 'Safari'…, or null for a browser not recognised. */
  browser: string | null;
  /** The browser's major version ('128'), when it tells it. */
  version: string | null;
  /** 'Windows', 'iPhone'…, or null. */
  system: string | null;
}

/** The browser, its major version and the system a user agent string names. */
export function parseUserAgent(userAgent: string): UserAgent {
  const browser = BROWSERS.find(([, pattern]) => pattern.test(userAgent));
  return {
    browser: browser?.[0] ?? null,
    version: browser?.[1].exec(userAgent)?.[1] ?? null,
    system: SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? null,
  };
}

export interface DescribeOptions {
  /** What a missing or blank user agent reads. */
  missing?: string;
  /** An agent naming no known browser or system is shown as it came, cut to this many characters. */
  maxLength?: number;
}

/**
 * A short, readable name for a device: 'Firefox 128 on Windows', 'Safari 17 on iPhone', 'Unknown browser on
 * Linux'. An agent naming neither a known browser nor a system is shown as it came, cut to `maxLength` (60)
 * characters; a missing one reads `missing` ('Unknown device').
 */
export function describeUserAgent(
  userAgent: string | null | undefined,
  { missing = 'Unknown device', maxLength = 60 }: DescribeOptions = {},
): string {
  const agent = userAgent?.trim();
  if (!agent) return missing;
  const { browser, version, system } = parseUserAgent(agent);
  if (!browser) {
    if (system) return `Unknown browser on ${system}`;
    return agent.length > maxLength ? `${agent.slice(0, maxLength - 1)}…` : agent;
  }
  const label = version ? `${browser} ${version}` : browser;
  return system ? `${label} on ${system}` : label;
}
