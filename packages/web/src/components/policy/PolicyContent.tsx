import './policy-content.css';
import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { sanitizeHtml } from '../../lib/sanitize';

export const NO_TEXT_YET = 'This version has no text yet.';

/** True when the HTML shows nothing: no words, no images, no tables. */
export function isBlankHtml(html: string): boolean {
  if (/<(img|table|hr)\b/i.test(html)) return false;
  const words = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/gi, ' ')
    .trim();
  return words === '';
}

interface PolicyContentProps {
  /** Server HTML: a version's content or a redline. Sanitised here before it is rendered. */
  html: string;
  /** Shown instead of blank content. */
  emptyText?: string;
  /** Names the region (e.g. 'Policy text of version 3'). */
  label?: string;
  /** Gives the headings ids `{headingIds}-1`, `-2`...: the targets of PolicyOutline with the same prefix. */
  headingIds?: string;
}

/** A policy's text, sanitised and styled for reading (headings, lists, bordered tables, redline marks). */
export function PolicyContent({ html, emptyText = NO_TEXT_YET, label, headingIds }: PolicyContentProps) {
  const clean = useMemo(() => {
    const safe = sanitizeHtml(html);
    return headingIds ? withHeadingIds(safe, headingIds) : safe;
  }, [html, headingIds]);
  if (isBlankHtml(clean)) {
    return (
      <Text c="dimmed" fs="italic" className="policy-content-empty">
        {emptyText}
      </Text>
    );
  }
  // A labelled section is a region a screen reader can jump to; unlabelled text is just part of the page.
  const Element = label ? 'section' : 'div';
  return (
    <Element
      className="policy-content"
      aria-label={label}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised just above with the SPEC section 5 policy.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

const HEADINGS = 'h1, h2, h3, h4';

function parsed(html: string): HTMLElement {
  return new DOMParser().parseFromString(html, 'text/html').body;
}

/** Sanitised HTML with its headings numbered as ids, in document order. */
export function withHeadingIds(html: string, prefix: string): string {
  const body = parsed(html);
  body.querySelectorAll(HEADINGS).forEach((heading, index) => {
    heading.id = `${prefix}-${index + 1}`;
  });
  return body.innerHTML;
}

export interface PolicyHeading {
  id: string;
  level: number;
  text: string;
}

/** The headings of a policy's text, with the ids withHeadingIds gives them (empty headings left out). */
export function policyHeadings(html: string, prefix: string): PolicyHeading[] {
  return [...parsed(sanitizeHtml(html)).querySelectorAll(HEADINGS)]
    .map((heading, index) => ({
      id: `${prefix}-${index + 1}`,
      level: Number(heading.tagName.slice(1)),
      text: (heading.textContent ?? '').replace(/\s+/g, ' ').trim(),
    }))
    .filter((heading) => heading.text !== '');
}
