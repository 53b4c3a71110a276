/**
 * Standards coverage of a draft (DOMAIN.md 4.2): whether its text still cites each standard its template lists. One
 * function for the wizard's preview and the server's, so both say the same.
 */

/** The text of policy HTML, tags dropped (enough to look for a citation; not a sanitiser). */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&sect;|&#167;|&#xa7;/gi, '§');
}

/**
 * Whether the HTML cites a ref id: "§482.42(a)" is cited by "42 CFR 482.42(a)" and by "482.42(a)(1)", not by
 * "482.42(b)"; "482.1" is not cited by "482.13", nor "IC.1.1" by "IC.1.10".
 */
export function citesStandard(html: string, refId: string): boolean {
  const bare = refId.replace(/^§\s*/, '').trim();
  if (!bare) return false;
  const escaped = bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![0-9A-Za-z.])${escaped}(?![0-9A-Za-z])`).test(textOf(html));
}
