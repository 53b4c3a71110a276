import { describe, expect, it } from 'vitest';
import { render, text } from '../../test/render';
import { isBlankHtml, NO_TEXT_YET, PolicyContent } from './PolicyContent';

describe('PolicyContent', () => {
  it('renders the text sanitised, in a labelled region', async () => {
    await render(
      <PolicyContent
        label="Text of version 2"
        html={
          '<h1>Scope</h1><ul><li>Staff</li></ul><a href="javascript:alert(1)">bad</a><iframe src="https://x.test"></iframe><p onclick="x()">Body</p>'
        }
      />,
    );
    const region = document.querySelector('section.policy-content')!;
    expect(region.getAttribute('aria-label')).toBe('Text of version 2');
    expect(region.querySelector('h1')?.textContent).toBe('Scope');
    expect(region.querySelector('li')?.textContent).toBe('Staff');
    expect(region.querySelector('iframe')).toBeNull();
    expect(region.querySelector('a')?.hasAttribute('href')).toBe(false);
    expect(region.innerHTML).not.toContain('onclick');
  });

  it('keeps the redline marks', async () => {
    await render(<PolicyContent html="<p>Use <del>soap</del><ins>alcohol rub</ins>.</p>" />);
    expect(document.querySelector('.policy-content del')?.textContent).toBe('soap');
    expect(document.querySelector('.policy-content ins')?.textContent).toBe('alcohol rub');
  });

  it('says when there is no text', async () => {
    await render(<PolicyContent html="<p></p><p>&nbsp;</p>" />);
    expect(text()).toContain(NO_TEXT_YET);
    expect(NO_TEXT_YET).toBe('This version has no text yet.');
    expect(document.querySelector('.policy-content')).toBeNull();
  });

  it('tells blank HTML from content', () => {
    expect(isBlankHtml('')).toBe(true);
    expect(isBlankHtml('<p> </p><h2></h2>')).toBe(true);
    expect(isBlankHtml('<p>x</p>')).toBe(false);
    expect(isBlankHtml('<p><img src="/a.png"></p>')).toBe(false);
    expect(isBlankHtml('<table><tr><td></td></tr></table>')).toBe(false);
  });
});
