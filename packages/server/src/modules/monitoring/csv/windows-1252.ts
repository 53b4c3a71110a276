/**
 * Windows-1252 decoding. Node 20's TextDecoder('windows-1252') decodes as Latin-1 (0x80 gives U+0080 instead of
 * €), so the bytes 0x80-0x9F are mapped here, per the WHATWG Encoding Standard's table (the five unassigned bytes
 * keep their C1 code points, as the standard says). A single-byte encoding: chunks decode independently.
 */
const HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code));

export function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (char) => HIGH[char.charCodeAt(0) - 0x80]!);
}
