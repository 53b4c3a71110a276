import { ActionIcon, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

interface PolicySearchBoxProps {
  /** Width of the box (full width on a phone by default). */
  w?: string | number | Record<string, string | number>;
}

/**
 * The policy search box of the app's header: Enter (or the search button) opens `search?q=...`. On the search
 * page it shows the words searched for and keeps the 'Include archived' choice.
 */
export function PolicySearchBox({ w = { base: '100%', sm: 280 } }: PolicySearchBoxProps) {
  const projectId = usePolicyProjectId();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
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

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = value.trim();
    if (!q) return;
    const next = new URLSearchParams({ q });
    if (onSearchPage && params.get('include_archived') === 'true') next.set('include_archived', 'true');
    navigate(`${searchPage}?${next.toString()}`);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not yet known everywhere (jsdom, older browsers); a form with role="search" is the same landmark
    <form role="search" aria-label="Policies" onSubmit={submit} style={{ minWidth: 0 }}>
      <TextInput
        w={w}
        type="search"
        aria-label="Search policies"
        placeholder="Search policies"
        value={value}
        maxLength={200}
        onChange={(event) => setValue(event.currentTarget.value)}
        rightSection={
          <ActionIcon type="submit" variant="subtle" color="gray.8" aria-label="Search">
            <SearchIcon />
          </ActionIcon>
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
