import { SCIM_BASE_PATH } from '@portal/shared';
import { SCIM_MAX_RESULTS, SCIM_SCHEMAS } from './scim.service.js';

/**
 * SCIM's discovery documents (RFC 7643 sections 5 to 7), as this server is: PATCH and the `eq` filter supported,
 * bulk, sorting, ETags and password changes not; one authentication scheme, the provider's bearer token.
 */

interface Attribute {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable';
  uniqueness?: 'none' | 'server';
  referenceTypes?: string[];
  subAttributes?: Attribute[];
}

interface AttributeDocument {
  name: string;
  type: string;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: string;
  returned: string;
  uniqueness: string;
  referenceTypes?: string[];
  subAttributes?: AttributeDocument[];
}

const attribute = (a: Attribute): AttributeDocument => ({
  name: a.name,
  type: a.type,
  multiValued: a.multiValued ?? false,
  description: '',
  required: a.required ?? false,
  caseExact: a.caseExact ?? false,
  mutability: a.mutability ?? 'readWrite',
  returned: 'default',
  uniqueness: a.uniqueness ?? 'none',
  ...(a.referenceTypes ? { referenceTypes: a.referenceTypes } : {}),
  ...(a.subAttributes ? { subAttributes: a.subAttributes.map(attribute) } : {}),
});

const USER_ATTRIBUTES: Attribute[] = [
  { name: 'userName', type: 'string', required: true, uniqueness: 'server' },
  { name: 'externalId', type: 'string', caseExact: true },
  {
    name: 'name',
    type: 'complex',
    subAttributes: [
      { name: 'givenName', type: 'string' },
      { name: 'familyName', type: 'string' },
      { name: 'formatted', type: 'string', mutability: 'readOnly' },
    ],
  },
  { name: 'displayName', type: 'string', mutability: 'readOnly' },
  {
    name: 'emails',
    type: 'complex',
    multiValued: true,
    subAttributes: [
      { name: 'value', type: 'string' },
      { name: 'type', type: 'string' },
      { name: 'primary', type: 'boolean' },
    ],
  },
  { name: 'active', type: 'boolean' },
];

const GROUP_ATTRIBUTES: Attribute[] = [
  { name: 'displayName', type: 'string', required: true },
  { name: 'externalId', type: 'string', caseExact: true },
  {
    name: 'members',
    type: 'complex',
    multiValued: true,
    subAttributes: [
      { name: 'value', type: 'string', mutability: 'immutable' },
      { name: 'display', type: 'string', mutability: 'readOnly' },
      { name: '$ref', type: 'reference', mutability: 'immutable', referenceTypes: ['User'] },
      { name: 'type', type: 'string', mutability: 'immutable' },
    ],
  },
];

export function serviceProviderConfig(appUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'The identity provider’s SCIM token, made in the portal’s console (Authorization: Bearer …).',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${appUrl}${SCIM_BASE_PATH}/ServiceProviderConfig` },
  };
}

export function resourceTypes(appUrl: string) {
  const types = [
    { id: 'User', name: 'User', endpoint: '/Users', schema: SCIM_SCHEMAS.user },
    { id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCIM_SCHEMAS.group },
  ].map((type) => ({
    schemas: [SCIM_SCHEMAS.resourceType],
    ...type,
    description: type.name,
    meta: { resourceType: 'ResourceType', location: `${appUrl}${SCIM_BASE_PATH}/ResourceTypes/${type.id}` },
  }));
  return list(types);
}

export function schemas(appUrl: string) {
  const documents = [
    { id: SCIM_SCHEMAS.user, name: 'User', description: 'User Account', attributes: USER_ATTRIBUTES },
    { id: SCIM_SCHEMAS.group, name: 'Group', description: 'Group', attributes: GROUP_ATTRIBUTES },
  ].map((schema) => ({
    schemas: [SCIM_SCHEMAS.schema],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes.map(attribute),
    meta: { resourceType: 'Schema', location: `${appUrl}${SCIM_BASE_PATH}/Schemas/${schema.id}` },
  }));
  return list(documents);
}

const list = (resources: unknown[]) => ({
  schemas: [SCIM_SCHEMAS.list],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});
