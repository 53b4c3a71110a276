import {
  Badge,
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
  rgba,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Mantine 9.7.3 ignores the shade asked for in two variants: `light` with a shade (color="teal.9") is painted in
 * the solid shade, hiding its text, and `subtle` text is capped at shade 6, below AA contrast. Here both keep the
 * shade: light is a tint with the colour (a little darker) as text; subtle text is the shade itself.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light' && input.variant !== 'subtle') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.shade === undefined) return colors;
  const value = input.theme.colors[parsed.color]![parsed.shade]!;
  if (input.variant === 'subtle') return { ...colors, color: value };
  return { ...colors, background: rgba(value, 0.1), hover: rgba(value, 0.15), color: darken(value, 0.2) };
};

/**
 * Mantine's default shades fail WCAG AA on white: blue 6 for buttons and links, gray 6 for "dimmed" text.
 * Shade 8 of blue (#1971c2, 5.0:1 with white) and gray 7 (#495057, 8.2:1) pass.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'md',
  headings: { fontWeight: '700' },
  variantColorResolver,
  components: {
    // A status is a word or two: a badge keeps its whole label ("ACT..." told nobody anything) and does not shrink
    // in a crowded row; the row wraps instead (docs/ui.md).
    Badge: Badge.extend({ styles: { root: { flexShrink: 0, minWidth: 'max-content' } } }),
  },
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
