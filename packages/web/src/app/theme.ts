import { type CSSVariablesResolver, createTheme } from '@mantine/core';

/**
 * Mantine's default shades fail WCAG AA on white: blue 6 for buttons and links, gray 6 for "dimmed" text.
 * Shade 8 of blue (#1971c2, 5.0:1 with white) and gray 7 (#495057, 8.2:1) pass.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'md',
  headings: { fontWeight: '700' },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // Error texts: red 6 (3.3:1 on white) fails AA; red 8 passes (4.5:1).
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    // Placeholders (gray 5, 2.5:1) fail AA where they carry meaning, as in a file picker's "Choose an image".
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
