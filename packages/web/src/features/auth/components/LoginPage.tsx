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
import { afterLoginPath } from '../redirect';
import { AuthCard } from './AuthCard';
import { CredentialsForm } from './CredentialsForm';

// Shown only to someone already signed in or with two-factor on: chunks of their own (bench/budgets.ts).
const CodeStep = lazyNamed(() => import('./CodeStep'), 'CodeStep');
const SignedInPanel = lazyNamed(() => import('./SignedInPanel'), 'SignedInPanel');

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

  useEffect(() => settleSignOut(), []);

  async function onSignedIn(response: Extract<LoginResponse, { user: unknown }>) {
    setCompleting(true);
    storeMfaFlag(response.setup_two_factor === true);
    await refreshSession(queryClient);
    postSessionMessage({ type: 'login' });
    await navigate(afterLoginPath(params.get('redirect')), { replace: true });
  }

  const inactivity = params.get('reason') === 'inactivity';
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
  } else {
    content = (
      <>
        {inactivity && (
          <Alert color="yellow" variant="light" role="status">
            {MESSAGES.inactivityLogout}
          </Alert>
        )}
        <CredentialsForm
          initialEmail={step.email}
          captcha={config?.captcha}
          onTwoFactor={(email) => setStep({ kind: 'code', email })}
          onSignedIn={onSignedIn}
        />
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
