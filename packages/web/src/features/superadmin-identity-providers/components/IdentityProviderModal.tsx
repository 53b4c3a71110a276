import {
  Accordion,
  Badge,
  Button,
  CloseButton,
  CopyButton,
  Fieldset,
  FileButton,
  Group,
  Modal,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  CLAIM_LABELS,
  type ClaimKey,
  DEFAULT_CLAIMS,
  DEFAULT_SAML_MFA_VALUES,
  IDP_KIND_LABELS,
  type IdentityProvider,
  type IdpKind,
} from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateLong } from '../../../lib/dates';
import { fileText } from '../../../lib/file-text';
import { useSaveIdentityProvider } from '../api/save-identity-provider';
import {
  DEFAULT_NAMES,
  DEFAULT_SCOPES,
  draftOf,
  type ErrorMap,
  emptyDraft,
  FORM_FIELDS,
  type ProviderDraft,
  parseDraft,
  serverErrors,
  slugFrom,
  withKind,
} from './provider-form';

const CLAIM_KEYS = Object.keys(DEFAULT_CLAIMS) as ClaimKey[];
const ADVANCED = 'claims';

interface IdentityProviderModalProps {
  opened: boolean;
  /** The provider to edit; null adds one. */
  provider: IdentityProvider | null;
  onClose: () => void;
}

/** Adds or edits an identity provider; after adding, shows the callback URL to register at the provider. */
export function IdentityProviderModal({ opened, provider, onClose }: IdentityProviderModalProps) {
  // A long form: a phone gets the whole screen for it.
  const phone = useMediaQuery('(max-width: 36em)');
  // Set once a provider was added: the modal then shows what to register at the provider.
  const [created, setCreated] = useState<IdentityProvider | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  let title = 'Add identity provider';
  if (created) title = `${created.name} added`;
  else if (provider) title = `Edit ${provider.name}`;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened &&
        (created ? (
          <CreatedStep provider={created} onDone={close} />
        ) : (
          <ProviderForm key={provider?.id ?? 'new'} provider={provider} onCreated={setCreated} onClose={close} />
        ))}
    </Modal>
  );
}

function CreatedStep({ provider, onDone }: { provider: IdentityProvider; onDone: () => void }) {
  const turnOn = provider.enabled ? '' : ' with Edit';
  return (
    <Stack gap="md">
      <Text size="sm">
        {provider.kind === 'saml'
          ? `Enter these values in the application you created at the identity provider (or give it the SP metadata address), then turn the provider on${turnOn} so the sign-in page offers it.`
          : `Register this callback URL (also called redirect URI) in the application you created at the provider, then turn the provider on${turnOn} so the sign-in page offers it.`}
      </Text>
      <PortalSide provider={provider} />
      <Group justify="flex-end">
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </Group>
    </Stack>
  );
}

/** What the provider's administrator enters for the portal: the callback URL, or SAML's ACS and SP entity ID. */
function PortalSide({ provider }: { provider: IdentityProvider }) {
  if (provider.kind === 'saml' && provider.saml) {
    return (
      <Stack gap="sm">
        <CopyField
          label="Assertion consumer service URL"
          description="Also called Reply URL or Single sign-on URL (HTTP-POST)."
          value={provider.callback_url}
        />
        <CopyField
          label="SP entity ID"
          description="Also called Identifier or Audience; it is also the address of the portal's SP metadata."
          value={provider.saml.sp_entity_id}
        />
      </Stack>
    );
  }
  return (
    <CopyField
      label="Callback URL"
      description="Register it at the provider as the redirect URI."
      value={provider.callback_url}
    />
  );
}

/** A value to copy into the provider's settings: read-only, with a copy button. */
function CopyField({ label, description, value }: { label: string; description: string; value: string }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        description={description}
        value={value}
        readOnly
        style={{ flex: 1, minWidth: 0 }}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button variant="default" onClick={copy} color={copied ? 'green.8' : undefined} aria-label={`Copy: ${label}`}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

interface ProviderFormProps {
  provider: IdentityProvider | null;
  onCreated: (provider: IdentityProvider) => void;
  onClose: () => void;
}

function ProviderForm({ provider, onCreated, onClose }: ProviderFormProps) {
  const save = useSaveIdentityProvider();
  const [draft, setDraft] = useState<ProviderDraft>(() => (provider ? draftOf(provider) : emptyDraft()));
  // While adding, the short name follows the name until it is edited by hand.
  const [slugTouched, setSlugTouched] = useState(provider !== null);
  const [errors, setErrors] = useState<ErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [advanced, setAdvanced] = useState<string | null>(null);

  function change<K extends keyof ProviderDraft>(key: K, value: ProviderDraft[K], cleared: string[] = [key]) {
    setDraft((current) => {
      const next = { ...current, [key]: value };
      if (key === 'name' && !slugTouched) next.slug = slugFrom(String(value));
      return next;
    });
    setErrors((current) => {
      const next = { ...current };
      for (const field of cleared) delete next[field];
      return next;
    });
  }

  function show(found: ErrorMap) {
    setErrors(found);
    if (CLAIM_KEYS.some((key) => `claims.${key}` in found)) setAdvanced(ADVANCED);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(null);
    const parsed = parseDraft(draft);
    if (!parsed.ok) {
      show(parsed.errors);
      const unplaced = Object.keys(parsed.errors).find((key) => !(FORM_FIELDS as readonly string[]).includes(key));
      if (unplaced) setFailure(parsed.errors[unplaced] ?? null);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: provider?.id ?? null, body: parsed.body });
      if (provider) {
        toast.success(`${saved.name} saved.`);
        onClose();
      } else {
        toast.success(`${saved.name} added.`);
        onCreated(saved);
      }
    } catch (error) {
      const found = serverErrors(error);
      const placed = Object.fromEntries(
        Object.entries(found).filter(([key]) => (FORM_FIELDS as readonly string[]).includes(key)),
      );
      show(placed);
      if (Object.keys(placed).length === 0) {
        setFailure(messageFor(error, 'The identity provider could not be saved. Please try again.'));
      }
    }
  }

  const hasSecret = provider?.oidc?.has_secret === true;
  return (
    <form onSubmit={submit} noValidate aria-label={provider ? `Edit ${provider.name}` : 'Add identity provider'}>
      <Stack gap="md">
        <ErrorNotice message={failure} />
        {provider && <PortalSide provider={provider} />}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Name"
            description="Shown on the sign-in button, as in “Sign in with Northwind Health”."
            required
            autoComplete="off"
            maxLength={100}
            value={draft.name}
            onChange={(event) => change('name', event.currentTarget.value, ['name', 'slug'])}
            error={errors.name}
            data-autofocus
          />
          <TextInput
            label="Short name"
            description="Used in addresses, such as the callback URL: lowercase letters, digits and hyphens."
            required
            autoComplete="off"
            maxLength={40}
            value={draft.slug}
            onChange={(event) => {
              setSlugTouched(true);
              change('slug', event.currentTarget.value);
            }}
            error={errors.slug}
          />
        </SimpleGrid>
        <Radio.Group
          label="Type"
          value={draft.kind}
          error={errors.kind}
          onChange={(value) => {
            setDraft((current) => withKind(current, value as IdpKind));
            setErrors({});
          }}
        >
          <Stack gap="xs" mt={6}>
            <Radio
              value="oidc"
              label={IDP_KIND_LABELS.oidc}
              description="Entra ID, Okta, Google Workspace, Keycloak, AD FS (2016 or newer)…"
              disabled={provider !== null && provider.kind !== 'oidc'}
            />
            <Radio
              value="saml"
              label={IDP_KIND_LABELS.saml}
              description="The same directories, and older ones that speak only SAML (AD FS, Shibboleth…)."
              disabled={provider !== null && provider.kind !== 'saml'}
            />
          </Stack>
        </Radio.Group>
        {draft.kind === 'saml' ? (
          <SamlFields provider={provider} draft={draft} errors={errors} change={change} />
        ) : (
          <>
            <TextInput
              label="Issuer URL"
              description="The provider's issuer; its settings are read from /.well-known/openid-configuration under it."
              placeholder="https://login.example.org"
              required
              type="url"
              autoComplete="off"
              maxLength={500}
              value={draft.issuer}
              onChange={(event) => change('issuer', event.currentTarget.value, ['oidc.issuer'])}
              error={errors['oidc.issuer']}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label="Client ID"
                description="From the application you registered at the provider."
                required
                autoComplete="off"
                maxLength={300}
                value={draft.client_id}
                onChange={(event) => change('client_id', event.currentTarget.value, ['oidc.client_id'])}
                error={errors['oidc.client_id']}
              />
              <Stack gap={4}>
                <PasswordInput
                  label="Client secret"
                  description={
                    provider
                      ? 'Leave blank to keep the stored secret; a new one replaces it.'
                      : 'From the same application. It is stored encrypted and never shown again.'
                  }
                  autoComplete="new-password"
                  maxLength={1000}
                  value={draft.client_secret}
                  onChange={(event) => change('client_secret', event.currentTarget.value, ['oidc.client_secret'])}
                  error={errors['oidc.client_secret']}
                />
                {provider && (
                  <Group gap={6}>
                    <Badge color={hasSecret ? 'green.8' : 'gray.7'} variant="light" data-testid="secret-status">
                      {hasSecret ? 'A secret is stored' : 'No secret stored'}
                    </Badge>
                  </Group>
                )}
              </Stack>
            </SimpleGrid>
            <TextInput
              label="Scopes"
              description={`Separated by spaces; must include openid. Usually “${DEFAULT_SCOPES}”.`}
              autoComplete="off"
              maxLength={300}
              value={draft.scopes}
              onChange={(event) => change('scopes', event.currentTarget.value, ['oidc.scopes'])}
              error={errors['oidc.scopes']}
            />
          </>
        )}
        <TagsInput
          label="Email domains"
          description="People whose address ends in one of these (such as hospital.org) may be linked or created at their first sign-in, and are offered this provider on the sign-in page. Press Enter after each."
          placeholder="hospital.org"
          value={draft.domains}
          onChange={(domains) => change('domains', domains)}
          error={errors.domains}
          splitChars={[',', ' ']}
          clearable
        />
        <Stack gap="sm">
          <Switch
            label="Enabled"
            description="The sign-in page offers this provider only while it is on."
            checked={draft.enabled}
            onChange={(event) => change('enabled', event.currentTarget.checked)}
            error={errors.enabled}
          />
          <Switch
            label="Trust the provider's multi-factor sign-in"
            description="A sign-in the provider reports as multi-factor counts as the portal's two-factor authentication; otherwise the portal asks for its own code where two-factor is required."
            checked={draft.trust_mfa}
            onChange={(event) => change('trust_mfa', event.currentTarget.checked, ['trust_mfa', 'mfa_values'])}
            error={errors.trust_mfa}
          />
          {draft.trust_mfa && (
            <TagsInput
              label="Values that mean multi-factor"
              description={
                draft.kind === 'saml'
                  ? `The AuthnContextClassRef values the provider sends for a multi-factor sign-in. Left empty: ${DEFAULT_SAML_MFA_VALUES.join(', ')}.`
                  : 'The amr or acr values the provider sends for a multi-factor sign-in. Usually mfa.'
              }
              value={draft.mfa_values}
              onChange={(values) => change('mfa_values', values)}
              error={errors.mfa_values}
              ml={{ base: 0, sm: 'xl' }}
            />
          )}
          <Switch
            label="Trust the provider's email addresses"
            description={
              draft.kind === 'saml'
                ? 'SAML says nothing of whether an address was verified: turn this on so that people with an address in the domains above can be linked or created. Only for a directory that owns those domains.'
                : 'Entra ID and AD FS send no email_verified: turn this on for them, so that people with an address in the domains above can be linked or created. Only for a directory that owns those domains.'
            }
            checked={draft.trust_email}
            onChange={(event) => change('trust_email', event.currentTarget.checked)}
            error={errors.trust_email}
          />
          <Switch
            label="Turn off local passwords for these domains"
            description="People with an address in the domains above must sign in through this provider. Superadmins keep their password for break-glass access."
            checked={draft.local_passwords_off}
            onChange={(event) => change('local_passwords_off', event.currentTarget.checked)}
            error={errors.local_passwords_off}
          />
        </Stack>
        <Accordion variant="contained" value={advanced} onChange={setAdvanced}>
          <Accordion.Item value={ADVANCED}>
            <Accordion.Control>
              {draft.kind === 'saml' ? 'Advanced: attribute names' : 'Advanced: claim names'}
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="sm">
                <Text size="sm">
                  {draft.kind === 'saml'
                    ? 'The assertion attributes the portal reads. The defaults are the names Entra ID and AD FS send; enter the names your provider uses.'
                    : 'The claims of the ID token the portal reads. The defaults are the OpenID Connect standard names; change them only if the provider uses others.'}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {CLAIM_KEYS.map((key) => (
                    <TextInput
                      key={key}
                      label={CLAIM_LABELS[key]}
                      description={`Default: ${DEFAULT_NAMES[draft.kind][key]}`}
                      autoComplete="off"
                      maxLength={100}
                      value={draft.claims[key]}
                      onChange={(event) =>
                        change('claims', { ...draft.claims, [key]: event.currentTarget.value }, [`claims.${key}`])
                      }
                      error={errors[`claims.${key}`]}
                    />
                  ))}
                </SimpleGrid>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {provider ? 'Save changes' : 'Add identity provider'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface SamlFieldsProps {
  provider: IdentityProvider | null;
  draft: ProviderDraft;
  errors: ErrorMap;
  change: <K extends keyof ProviderDraft>(key: K, value: ProviderDraft[K], cleared?: string[]) => void;
}

/** A SAML provider's side: its metadata (an address, or a file), or its details typed by hand. */
function SamlFields({ provider, draft, errors, change }: SamlFieldsProps) {
  const [reading, setReading] = useState<string | null>(null);
  const certificates = provider?.saml?.certificates ?? [];
  async function upload(file: File | null) {
    if (!file) return;
    setReading(null);
    if (file.size > 500_000) {
      setReading('The metadata file is at most 500 KB.');
      return;
    }
    const text = await fileText(file);
    change('metadata_xml', text, ['saml.metadata_xml']);
    change('metadata_file', file.name);
  }
  return (
    <Stack gap="md">
      <TextInput
        label="IdP metadata URL"
        description="The provider's federation metadata address. It is read when you save; save again to read it anew after the provider changes its certificate."
        placeholder="https://login.example.org/federationmetadata.xml"
        type="url"
        autoComplete="off"
        maxLength={500}
        value={draft.metadata_url}
        onChange={(event) => change('metadata_url', event.currentTarget.value, ['saml.metadata_url'])}
        error={errors['saml.metadata_url']}
      />
      <Stack gap={4}>
        <Group gap="sm">
          <FileButton
            onChange={(file) => void upload(file)}
            accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
          >
            {(props) => (
              <Button variant="default" {...props}>
                Upload metadata file
              </Button>
            )}
          </FileButton>
          {draft.metadata_file && (
            <Badge
              variant="light"
              color="blue.8"
              rightSection={
                <CloseButton
                  size="xs"
                  aria-label={`Remove ${draft.metadata_file}`}
                  onClick={() => {
                    change('metadata_xml', '', ['saml.metadata_xml']);
                    change('metadata_file', '');
                  }}
                />
              }
            >
              {draft.metadata_file}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          An uploaded file wins over the address; the portal keeps what it reads, not the file.
        </Text>
        {(reading ?? errors['saml.metadata_xml']) && (
          <Text size="sm" c="red.8" role="alert">
            {reading ?? errors['saml.metadata_xml']}
          </Text>
        )}
      </Stack>
      <Fieldset legend="Or enter the details by hand" variant="filled">
        <Stack gap="sm">
          <TextInput
            label="IdP entity ID"
            description="The provider's issuer, as its metadata names it."
            autoComplete="off"
            maxLength={500}
            value={draft.entity_id}
            onChange={(event) => change('entity_id', event.currentTarget.value, ['saml.entity_id'])}
            error={errors['saml.entity_id']}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Single sign-on URL"
              description="Where sign-in requests go (HTTP-Redirect)."
              type="url"
              autoComplete="off"
              maxLength={500}
              value={draft.sso_url}
              onChange={(event) => change('sso_url', event.currentTarget.value, ['saml.sso_url'])}
              error={errors['saml.sso_url']}
            />
            <TextInput
              label="Single logout URL"
              description="Optional: where the provider takes logout requests."
              type="url"
              autoComplete="off"
              maxLength={500}
              value={draft.slo_url}
              onChange={(event) => change('slo_url', event.currentTarget.value, ['saml.slo_url'])}
              error={errors['saml.slo_url']}
            />
          </SimpleGrid>
          <Textarea
            label="Signing certificate"
            description={
              provider
                ? 'Leave blank to keep the trusted certificates below; a new one replaces them.'
                : 'The PEM text (-----BEGIN CERTIFICATE-----…) or its base64 body.'
            }
            rows={4}
            ff="monospace"
            value={draft.certificate}
            onChange={(event) => change('certificate', event.currentTarget.value, ['saml.certificate'])}
            error={errors['saml.certificate']}
          />
        </Stack>
      </Fieldset>
      {certificates.length > 0 && (
        <Stack gap={4} aria-label="Trusted certificates" role="group">
          <Text size="sm" fw={500}>
            Trusted certificates
          </Text>
          {certificates.map((cert) => (
            <Text key={cert.fingerprint} size="xs" style={{ overflowWrap: 'anywhere' }}>
              {cert.subject} · expires {formatDateLong(cert.expires_at)} · SHA-256 {cert.fingerprint}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
