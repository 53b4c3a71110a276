import { useSearchParams } from 'react-router';

/** A positive whole number of at most 10 digits from the query string, else undefined. */
export function positiveInt(value: string | null): number | undefined {
  if (!value || !/^\d{1,10}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= 1 && Number.isSafeInteger(number) ? number : undefined;
}

/**
 * The page's filters kept in the URL (so a filtered view is a link, and Back steps through filters). `update`
 * merges changes; an empty value removes its key, and any change but the page's own goes back to page 1.
 */
export function useUrlFilters() {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | number | null | undefined>, replace = false) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === undefined || value === '') next.delete(key);
          else next.set(key, String(value));
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace },
    );
  };
  return { params, update };
}
