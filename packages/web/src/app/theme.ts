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
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
