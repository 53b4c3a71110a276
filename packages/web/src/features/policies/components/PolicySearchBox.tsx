import { ActionIcon, Group, Kbd, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

interface PolicySearchBoxProps {
  /** Width of the box (full width on a phone by default). */
  w?: string | number | Record<string, string | number>;
}

/** The filters of the search page, kept in its URL and carried to a new search from this box. */
export const SEARCH_FILTERS = ['department_id', 'status', 'include_archived'] as const;

/** Whether a key press is typing into something (a field, a list box, the policy editor), not a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"]') !== null
  );
}

/**
 * The policy search box of the app's header: Enter (or the search button) opens `search?q=...`. On the search
 * page it shows the words searched for and keeps the page's filters. "/" anywhere else on a policy screen puts the
 * cursor here (the hint shows on screens wide enough to have a keyboard).
 */
export function PolicySearchBox({ w = { base: '100%', sm: 280 } }: PolicySearchBoxProps) {
  const projectId = usePolicyProjectId();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const inputRef = useRef<HTMLInputElement>(null);
  const searchPage = policyRoute(projectId, 'search');
  // /app/policy_management/{id or slug}/search
  const parts = pathname.split('/').filter(Boolean);
  const onSearchPage = parts.length === 4 && parts[1] === 'policy_management' && parts[3] === 'search';
  const fromUrl = onSearchPage ? (params.get('q') ?? '') : '';

  const [value, setValue] = useState(fromUrl);
  // The box follows the URL when it changes underneath (back button, a link to another search).
  const [shown, setShown] = useState(fromUrl);
  if (shown !== fromUrl) {
    setShown(fromUrl);
    setValue(fromUrl);
  }

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (isTyping(event.target)) return;
      event.preventDefault();
      inputRef.current?.focus();
      inputRef.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = value.trim();
    if (!q) return;
    const next = new URLSearchParams({ q });
    for (const filter of SEARCH_FILTERS) {
      const kept = onSearchPage ? params.get(filter) : null;
      if (kept) next.set(filter, kept);
    }
    navigate(`${searchPage}?${next.toString()}`);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not yet known everywhere (jsdom, older browsers); a form with role="search" is the same landmark
    <form role="search" aria-label="Policies" onSubmit={submit} style={{ minWidth: 0 }}>
      <TextInput
        ref={inputRef}
        w={w}
        type="search"
        aria-label="Search policies"
        aria-keyshortcuts="/"
        placeholder="Search policies"
        value={value}
        maxLength={200}
        onChange={(event) => setValue(event.currentTarget.value)}
        rightSectionWidth={value ? 36 : 64}
        rightSection={
          <Group gap={4} wrap="nowrap">
            {!value && (
              <Kbd size="xs" visibleFrom="sm" title='Press "/" to search' data-testid="search-shortcut">
                /
              </Kbd>
            )}
            <ActionIcon type="submit" variant="subtle" color="gray.8" aria-label="Search">
              <SearchIcon />
            </ActionIcon>
          </Group>
        }
      />
    </form>
  );
}

function SearchIcon() {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx={11} cy={11} r={7} fill="none" stroke="currentColor" strokeWidth={2} />
      <path d="M20 20l-4-4" stroke="currentColor" strokeWidth={2} strokeLinecap="round" />
    </svg>
  );
}
