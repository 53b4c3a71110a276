/**
 * Template HTML written across lines for reading, stored on one line the way the policy editor saves it: a line
 * break between two tags goes, a line break inside running text becomes one space. No interpolation.
 */
export function html(strings: TemplateStringsArray): string {
  return strings
    .join('')
    .replace(/>\s*\n\s*</g, '><')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}
