import { Mark, Text } from '@mantine/core';
import { SNIPPET_START, SNIPPET_STOP } from '@portal/shared';
import { Fragment } from 'react';

/** A search result's snippet with its matches highlighted: the signed-in search and the guest reader show it alike. */

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/**
 * A snippet cut into plain text and matches: the server marks each match between SNIPPET_START and SNIPPET_STOP.
 * Stray or unbalanced markers are dropped; the text is never read as HTML.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let mark = false;
  let text = '';
  const push = () => {
    if (!text) return;
    const last = parts.at(-1);
    if (last && last.mark === mark) last.text += text;
    else parts.push({ text, mark });
    text = '';
  };
  for (const char of snippet) {
    if (char === SNIPPET_START || char === SNIPPET_STOP) {
      const opens = char === SNIPPET_START;
      if (opens !== mark) {
        push();
        mark = opens;
      }
    } else {
      text += char;
    }
  }
  push();
  return parts;
}

export function Snippet({ snippet }: { snippet: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="snippet">
      {snippetParts(snippet).map((part, index) =>
        part.mark ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
          <Mark key={index}>{part.text}</Mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </Text>
  );
}
