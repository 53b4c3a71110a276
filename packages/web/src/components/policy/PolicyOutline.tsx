import { Anchor, Box, Button, Collapse, Paper } from '@mantine/core';
import { useId, useMemo, useState } from 'react';
import { usePhone } from '../../lib/use-phone';
import { DisclosureChevron } from '../DisclosureChevron';
import { policyHeadings } from './PolicyContent';

/**
 * The contents of a policy's text: its headings, each a jump to its place in the PolicyContent rendered with the same
 * `prefix`. Open on a large screen, folded on a phone (the text comes first there); nothing for fewer than two
 * headings.
 */
export function PolicyOutline({ html, prefix }: { html: string; prefix: string }) {
  const headings = useMemo(() => policyHeadings(html, prefix), [html, prefix]);
  const phone = usePhone();
  const [open, setOpen] = useState(!phone);
  const listId = useId();
  if (headings.length < 2) return null;
  const top = Math.min(...headings.map((heading) => heading.level));

  const jump = (id: string) => {
    const target = document.getElementById(id);
    if (!target) return;
    target.setAttribute('tabindex', '-1');
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
  };

  return (
    <Paper component="nav" aria-label="Contents of this policy" withBorder radius="md" px="sm" py={6}>
      <Button
        variant="subtle"
        color="gray.8"
        size="compact-sm"
        px={4}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
        leftSection={<DisclosureChevron open={open} />}
      >
        Contents ({headings.length} sections)
      </Button>
      <Collapse expanded={open} id={listId}>
        <Box component="ol" m={0} mt={4} p={0} style={{ listStyle: 'none' }}>
          {headings.map((heading) => (
            <Box component="li" key={heading.id} pl={(heading.level - top) * 16 + 4} py={2}>
              <Anchor component="button" type="button" size="sm" ta="left" onClick={() => jump(heading.id)}>
                {heading.text}
              </Anchor>
            </Box>
          ))}
        </Box>
      </Collapse>
    </Paper>
  );
}
