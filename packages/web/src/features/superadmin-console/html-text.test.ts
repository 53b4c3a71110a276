import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text';

describe('htmlToText', () => {
  it('puts each block on its own line and collapses white space inside it', () => {
    expect(
      htmlToText(
        '<h2>System  use</h2><p>Use is <strong>monitored</strong>\n and logged.</p><ul><li>One</li><li>Two<br>lines</li></ul><blockquote><p>Quote</p></blockquote>',
      ),
    ).toBe('System use\nUse is monitored and logged.\nOne\nTwo\nlines\nQuote');
  });

  it('ignores scripts and styles and runs nothing', () => {
    const before = document.body.innerHTML;
    expect(
      htmlToText(
        '<p>Text</p><script>document.body.innerHTML = "x"</script><style>p{}</style><img src=x onerror="document.title=1">',
      ),
    ).toBe('Text');
    expect(document.body.innerHTML).toBe(before);
    expect(document.title).not.toBe('1');
  });

  it('gives an empty text for empty HTML', () => {
    expect(htmlToText('')).toBe('');
    expect(htmlToText('<p></p><p> </p>')).toBe('');
  });
});
