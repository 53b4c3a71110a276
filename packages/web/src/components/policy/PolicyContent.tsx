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
}

/** A policy's text, sanitised and styled for reading (headings, lists, bordered tables, redline marks). */
export function PolicyContent({ html, emptyText = NO_TEXT_YET, label }: PolicyContentProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
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
