import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { isWellFormedEmail, type LoginResponse, MESSAGES, type PublicConfig, providerForEmail } from '@portal/shared';
import { type FormEvent, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { useCaptchaField } from '../../../components/CaptchaField';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { lazyNamed } from '../../../lib/lazy-named';
import { termsAcceptanceRequired, useTermsStatus } from '../api/check-terms';
import type { PublicIdentityProvider } from '../api/get-public-identity-providers';
import { useLogin } from '../api/login';
import { useDebounced } from '../hooks/use-debounced';

// Shown only when the account must (re-)accept the terms: a chunk of its own, off the login page (bench/budgets.ts).
const TermsField = lazyNamed(() => import('./TermsField'), 'TermsField');

export const TERMS_LOOKUP_DELAY_MS = 500;

interface CredentialsFormProps {
  /** The login name typed before (when the user comes back from the code step). */
  initialEmail?: string;
  /** Captcha settings from the public config; undefined while it loads. */
  captcha: PublicConfig['captcha'] | undefined;
  /** The server answered { two_factor: true } for this login name. */
  onTwoFactor: (email: string) => void;
  onSignedIn: (response: Extract<LoginResponse, { user: unknown }>) => Promise<void>;
  /** The enabled identity providers: an address in a domain one claims is offered that provider. */
  providers?: readonly PublicIdentityProvider[];
  /** Leaves for the identity provider (a full-page navigation). */
  onSso?: (provider: PublicIdentityProvider) => void;
}

interface FieldErrors {
  email?: string;
  password?: string;
  captcha?: string;
  terms?: string;
}

/** Step one of the login: username or email, password, captcha and, when needed, the terms. */
export function CredentialsForm({
  initialEmail = '',
  captcha,
  onTwoFactor,
  onSignedIn,
  providers = [],
  onSso,
}: CredentialsFormProps) {
  const login = useLogin();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  // The server refused for the terms although the lookup did not ask for them (e.g. a username was typed).
  const [termsDemanded, setTermsDemanded] = useState(false);
  const [finishing, setFinishing] = useState(false);

  const lookupEmail = useDebounced(email.trim(), TERMS_LOOKUP_DELAY_MS);
  const terms = useTermsStatus(isWellFormedEmail(lookupEmail) ? lookupEmail : '');
  const termsRequired = termsDemanded || termsAcceptanceRequired(terms.data);
  // Email-domain discovery: the provider that claims the typed address's domain, if any.
  const organisation = onSso ? providerForEmail(providers, email) : undefined;
  const passwordsOff = organisation?.local_passwords_off === true;

  const captchaField = useCaptchaField(captcha, {
    id: 'login-captcha',
    onVerified: () => setErrors((current) => ({ ...current, captcha: undefined })),
  });

  /** A field's message goes once the field changes: it described the value that was there. */
  const clearError = (field: keyof FieldErrors) =>
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));

  function validate(): FieldErrors {
    const found: FieldErrors = {};
    if (!email.trim()) found.email = 'Enter your email or username.';
    if (!password) found.password = 'Enter your password.';
    if (captchaField.missing) found.captcha = MESSAGES.captchaRequired;
    if (termsRequired && !acceptTerms) found.terms = MESSAGES.termsRequired;
    return found;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.isPending || finishing) return;
    if (organisation && passwordsOff) {
      onSso?.(organisation);
      return;
    }
    setServerError(null);
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    try {
      const response = await login.mutateAsync({
        email: email.trim(),
        password,
        'g-recaptcha-response': captchaField.payload,
        accept_terms: termsRequired ? acceptTerms : undefined,
      });
      if ('two_factor' in response) {
        onTwoFactor(email.trim());
        return;
      }
      setFinishing(true);
      await onSignedIn(response);
    } catch (error) {
      setFinishing(false);
      const message = messageFor(error, MESSAGES.loginFailed);
      setServerError(message);
      if (message === MESSAGES.termsRequired) setTermsDemanded(true);
      setPassword('');
      // A captcha solution is accepted once: every failed attempt needs a new one (SPEC section 8).
      captchaField.reset();
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Member login">
      <Stack gap="md">
        <ErrorNotice message={serverError} />
        <TextInput
          label="Username or email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            clearError('email');
          }}
          error={errors.email}
        />
        {organisation && (
          <Alert color="blue.8" variant="light" role="status">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">Your organisation signs in with {organisation.name}.</Text>
              {!passwordsOff && (
                <Button size="compact-sm" variant="light" onClick={() => onSso?.(organisation)}>
                  Continue with {organisation.name}
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        {passwordsOff ? (
          <Button type="submit" fullWidth>
            Continue with {organisation?.name}
          </Button>
        ) : (
          <>
            <PasswordInput
              label="Password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                clearError('password');
              }}
              error={errors.password}
            />
            <Anchor component={Link} to="/lost-password" size="sm" mt={-8} w="fit-content">
              Forgot your password?
            </Anchor>
            {termsRequired && (
              <Suspense fallback={null}>
                <TermsField
                  changed={terms.data === 'needs_update_acceptance'}
                  checked={acceptTerms}
                  onChange={(checked) => {
                    setAcceptTerms(checked);
                    clearError('terms');
                  }}
                  error={errors.terms}
                />
              </Suspense>
            )}
            {captchaField.field(errors.captcha)}
            <Button type="submit" loading={login.isPending || finishing} fullWidth>
              Log in
            </Button>
          </>
        )}
      </Stack>
    </form>
  );
}
