import { Button, Divider, Stack } from '@mantine/core';
import type { PublicIdentityProvider } from '../api/get-public-identity-providers';
import { ssoStartUrl } from '../sso';

interface SsoButtonsProps {
  providers: readonly PublicIdentityProvider[];
  /** Where the sign-in goes afterwards (the path the password sign-in would go to). */
  target: string;
}

/** A "Sign in with {name}" button per enabled identity provider: a full-page navigation to the provider. */
export function SsoButtons({ providers, target }: SsoButtonsProps) {
  if (providers.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label="Single sign-on">
      <Divider label="or" labelPosition="center" />
      {providers.map((provider) => (
        <Button
          key={provider.slug}
          component="a"
          href={ssoStartUrl(provider.login_url, target)}
          variant="default"
          fullWidth
        >
          Sign in with {provider.name}
        </Button>
      ))}
    </Stack>
  );
}
