import { Alert, Anchor, Center, Loader } from '@mantine/core';
import { type LoginResponse, MESSAGES } from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { lazyNamed } from '../../../lib/lazy-named';
import { usePublicConfig } from '../../../lib/public-config';
import { MFA_SETUP_FLAG, refreshSession, settleSignOut, useSession } from '../../../lib/session';
import { postSessionMessage } from '../../../lib/session-channel';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePublicIdentityProviders } from '../api/get-public-identity-providers';
import { afterLoginPath, safeRedirectPath } from '../redirect';
import { browserNavigation, ssoErrorMessage, ssoStartUrl } from '../sso';
import { AuthCard } from './AuthCard';
import { CredentialsForm } from './CredentialsForm';
import { SsoButtons } from './SsoButtons';

// Shown only to someone already signed in or with two-factor on: chunks of their own (bench/budgets.ts).
const CodeStep = lazyNamed(() => import('./CodeStep'), 'CodeStep');
const SignedInPanel = lazyNamed(() => import('./SignedInPanel'), 'SignedInPanel');
// Only after a single sign-on that needs the terms (`?sso=terms`).
const SsoTermsStep = lazyNamed(() => import('./SsoTermsStep'), 'SsoTermsStep');

type Step = { kind: 'credentials'; email?: string } | { kind: 'code'; email: string };

function storeMfaFlag(required: boolean): void {
  try {
    if (required) window.localStorage.setItem(MFA_SETUP_FLAG, 'true');
    else window.localStorage.removeItem(MFA_SETUP_FLAG);
  } catch {
    // Storage unavailable: the server's MFA headers still drive the banners.
  }
}

/** /member-login (SPEC section 2 "Login"). */
export function LoginPage() {
  usePageTitle('Member Login');
  const session = useSession();
  const { config } = usePublicConfig();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  // Set once the login succeeded: keeps the form on screen (not the signed-in panel) until we navigate away.
  const [completing, setCompleting] = useState(false);
  const providers = usePublicIdentityProviders();
  // Back from the identity provider (decision record 023): a step still to do, or why it did not finish.
  const sso = params.get('sso');
  const ssoError = params.get('sso_error');
  const target = afterLoginPath(params.get('redirect'));

  useEffect(() => settleSignOut(), []);

  async function finishSignIn(path: string, setupTwoFactor?: boolean) {
    setCompleting(true);
    if (setupTwoFactor !== undefined) storeMfaFlag(setupTwoFactor);
    await refreshSession(queryClient);
    postSessionMessage({ type: 'login' });
    await navigate(path, { replace: true });
  }

  async function onSignedIn(response: Extract<LoginResponse, { user: unknown }>) {
    await finishSignIn(target, response.setup_two_factor === true);
  }

  /** Leaves a single sign-on step for the password form (the redirect kept). */
  function leaveSso() {
    const next = new URLSearchParams();
    const redirect = params.get('redirect');
    if (redirect) next.set('redirect', redirect);
    const query = next.toString();
    setStep({ kind: 'credentials' });
    void navigate(query ? `/member-login?${query}` : '/member-login', { replace: true });
  }

  const startSso = (provider: { login_url: string }) =>
    browserNavigation.assign(ssoStartUrl(provider.login_url, target));

  const inactivity = params.get('reason') === 'inactivity';
  const sessionEnded = params.get('reason') === 'session_ended';
  const checking = (
    <Center py="xl" role="status" aria-label="Checking your session">
      <Loader />
    </Center>
  );
  let content: ReactNode;
  if (session.status === 'loading' && !completing) {
    content = checking;
  } else if (session.status === 'signed-in' && !completing) {
    content = <SignedInPanel username={session.user.username} />;
  } else if (step.kind === 'code') {
    content = (
      <CodeStep
        email={step.email}
        onSignedIn={onSignedIn}
        onCancel={() => setStep({ kind: 'credentials', email: step.email })}
      />
    );
  } else if (sso === 'two_factor') {
    // The provider signed the person in; the account's own two-factor code is still needed.
    content = <CodeStep onSignedIn={onSignedIn} onCancel={leaveSso} />;
  } else if (sso === 'terms') {
    content = (
      <SsoTermsStep
        onCancel={leaveSso}
        onDone={async (outcome) => {
          if (outcome.kind === 'two-factor') {
            await navigate(`/member-login?${withSso(params, 'two_factor')}`, { replace: true });
            return;
          }
          await finishSignIn((outcome.redirect && safeRedirectPath(outcome.redirect)) || target);
        }}
      />
    );
  } else {
    content = (
      <>
        {inactivity && (
          <Alert color="yellow" variant="light" role="status">
            {MESSAGES.inactivityLogout}
          </Alert>
        )}
        {sessionEnded && (
          <Alert color="yellow" variant="light" role="status">
            {MESSAGES.sessionEnded}
          </Alert>
        )}
        {ssoError !== null && (
          <Alert color="red" variant="light" role="alert">
            {ssoErrorMessage(ssoError)}
          </Alert>
        )}
        <CredentialsForm
          initialEmail={step.email}
          captcha={config?.captcha}
          onTwoFactor={(email) => setStep({ kind: 'code', email })}
          onSignedIn={onSignedIn}
          providers={providers}
          onSso={startSso}
        />
        <SsoButtons providers={providers} target={target} />
      </>
    );
  }

  return (
    <AuthCard
      title="Member Login"
      subtitle="Sign in to reach your facility's projects."
      footer={
        <Anchor component={Link} to="/terms-and-conditions">
          Terms and Conditions
        </Anchor>
      }
    >
      <Suspense fallback={checking}>{content}</Suspense>
    </AuthCard>
  );
}

/** The query string with `sso` set to `value` (the redirect kept). */
function withSso(params: URLSearchParams, value: string): string {
  const next = new URLSearchParams(params);
  next.delete('sso_error');
  next.set('sso', value);
  return next.toString();
}
