import { Alert, Button, Center, Loader, Paper, Skeleton, Stack, Text, Typography, VisuallyHidden } from '@mantine/core';
import type { PublicTerms } from '@portal/shared';
import { type ReactNode, useMemo } from 'react';
import { formatDayLong } from '../../../lib/dates';
import { sanitizeHtml } from '../../../lib/sanitize';

const BOX_HEIGHT = '24rem';
const LOAD_ERROR = 'The terms and conditions could not be loaded at this time. Please try again later.';
const EMPTY = 'No terms and conditions have been published yet.';

/** The fixed-height box the text scrolls in; the loading state uses the same box so nothing jumps. */
function TermsBox({ children, label }: { children: ReactNode; label: string }) {
  return (
    // A scrollable region must be reachable by keyboard to be scrolled without a mouse (axe: scrollable-region-focusable).
    <Paper
      withBorder
      radius="md"
      p="md"
      h={BOX_HEIGHT}
      role="region"
      aria-label={label}
      tabIndex={0}
      style={{ overflowY: 'auto' }}
    >
      {children}
    </Paper>
  );
}

export function TermsLoading() {
  return (
    <Stack gap="sm">
      <Skeleton h="1.5rem" w="14rem" maw="100%" />
      <TermsBox label="Terms and conditions text">
        <Center h="100%" role="status" aria-label="Loading the terms and conditions">
          <Loader />
          <VisuallyHidden>Loading the terms and conditions</VisuallyHidden>
        </Center>
      </TermsBox>
    </Stack>
  );
}

export function TermsError({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  return (
    <Stack gap="sm" align="flex-start">
      <Alert color="red" variant="light" w="100%">
        {LOAD_ERROR}
      </Alert>
      <Button variant="default" loading={retrying} onClick={onRetry}>
        Try again
      </Button>
    </Stack>
  );
}

export function TermsContent({ terms }: { terms: PublicTerms }) {
  // Sanitised here, right before rendering, whatever the server already did (SPEC section 5, DESIGN section 1).
  const html = useMemo(() => sanitizeHtml(terms.content ?? ''), [terms.content]);
  if (!html.trim()) {
    return (
      <Paper withBorder radius="md" p="xl" bg="gray.0">
        <Text ta="center">{EMPTY}</Text>
      </Paper>
    );
  }
  return (
    <Stack gap="sm">
      {terms.lastUpdated && (
        <Text fw={500} lh="1.5rem">
          Last Updated: <time dateTime={terms.lastUpdated}>{formatDayLong(terms.lastUpdated)}</time>
        </Text>
      )}
      <TermsBox label="Terms and conditions text">
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised just above with the SPEC policy */}
        <Typography dangerouslySetInnerHTML={{ __html: html }} />
      </TermsBox>
    </Stack>
  );
}
