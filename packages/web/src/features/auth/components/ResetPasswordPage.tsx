import { Alert, Anchor, Button } from '@mantine/core';
import { isWellFormedEmail, MESSAGES, RESET_TOKEN_PATTERN } from '@portal/shared';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title';
import { AuthCard } from './AuthCard';
import { ResetPasswordForm } from './ResetPasswordForm';

/** /reset-password?token=&email= (SPEC section 2 "Reset password", section 5 "Reset"). */
export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const linkValid = RESET_TOKEN_PATTERN.test(token) && isWellFormedEmail(email);

  return (
    <AuthCard
      title="Reset password"
      subtitle={linkValid ? 'Choose a new password for your account.' : undefined}
      footer={
        <Anchor component={Link} to="/member-login">
          Back to login
        </Anchor>
      }
    >
      {linkValid ? (
        <ResetPasswordForm token={token} email={email.trim()} />
      ) : (
        <>
          <Alert color="red" variant="light" role="alert">
            {MESSAGES.resetInvalidLink}
          </Alert>
          <Button component={Link} to="/lost-password" variant="default">
            Request a new link
          </Button>
        </>
      )}
    </AuthCard>
  );
}
