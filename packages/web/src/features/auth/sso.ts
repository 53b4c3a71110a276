import { SSO_ERRORS } from '@portal/shared';

/** The sign-in page's message for `?sso_error=<key>`; an unknown key reads as a failed sign-on. */
export function ssoErrorMessage(key: string): string {
  return Object.hasOwn(SSO_ERRORS, key) ? SSO_ERRORS[key as keyof typeof SSO_ERRORS] : SSO_ERRORS.failed;
}

/** The provider's sign-in address, asked to come back to `target` (a path of this site). */
export function ssoStartUrl(loginUrl: string, target: string): string {
  return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(target)}`;
}

/** Leaving for the identity provider is a full-page navigation (an object, so tests can watch it). */
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
