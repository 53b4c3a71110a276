/** Every query of the identity providers screen (single sign-on, decision record 023). */
export const IDENTITY_PROVIDERS_KEY = ['super', 'identity-providers'] as const;

export const IDENTITY_PROVIDERS_PATH = '/super/identity-providers';
export const identityProviderPath = (id: number) => `${IDENTITY_PROVIDERS_PATH}/${id}`;
