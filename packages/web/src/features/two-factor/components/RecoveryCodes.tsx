import { Alert, Button, CopyButton, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';

export const RECOVERY_CODES_FILE = 'recovery-codes.txt';

export function recoveryCodesText(codes: string[]): string {
  return [
    'Healthcare Quality Portal: two-factor recovery codes',
    'Each code signs you in once when you cannot use your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(codes: string[]): void {
  const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = RECOVERY_CODES_FILE;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The recovery codes, shown once after they are made: copy, download as text, then done. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} fz="h3">
          Your recovery codes
        </Title>
        <Alert color="yellow" variant="light">
          Save these codes now: they are shown only once. Each code signs you in one time if you lose access to your
          authenticator app.
        </Alert>
        <SimpleGrid
          cols={{ base: 1, xs: 2 }}
          spacing="xs"
          component="ul"
          aria-label="Recovery codes"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
        >
          {codes.map((code) => (
            <Text key={code} component="li" ff="monospace" fz="md" ta="center" py={4} bg="gray.0">
              {code}
            </Text>
          ))}
        </SimpleGrid>
        <Group gap="sm">
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy} color={copied ? 'green.8' : undefined}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={() => download(codes)}>
            Download
          </Button>
          <Button onClick={onDone} ml="auto">
            I have saved my codes
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
