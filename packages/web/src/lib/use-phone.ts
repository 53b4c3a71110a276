import { useMediaQuery } from '@mantine/hooks';

/** Below Mantine's `sm` breakpoint (48em): where the layout gives the page's own content the first screen. */
export const PHONE_QUERY = '(max-width: 47.99em)';

/** Whether the window is phone-sized, known at the first render (no desktop layout flashing on a phone). */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}
