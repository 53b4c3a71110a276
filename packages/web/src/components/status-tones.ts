/**
 * The colours of status badges, one meaning each in every app (docs/ui.md "Status colours"). Dark shades: on a light
 * badge the theme tints the background and darkens the text, and these keep 4.5:1 contrast.
 */
export const TONE = {
  /** Not started, closed, draft, switched off. */
  neutral: 'gray.8',
  /** In progress, or waiting for someone else. */
  progress: 'blue.9',
  /** Needs a person soon: in review, waiting for a signature, returned, paused. */
  attention: 'orange.9',
  /** Done, published, active, approved. */
  done: 'green.9',
  /** A problem to act on: overdue, open finding, rejected, disabled. */
  problem: 'red.9',
} as const;
