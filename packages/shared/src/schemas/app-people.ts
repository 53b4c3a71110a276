import { z } from 'zod';
import { emailSchema } from './admin.js';
import { recordId } from './common.js';
import { MONITORING_MAIN_ROLES, POLICY_MAIN_ROLES } from './permissions.js';

/**
 * Contracts of an app's people (SPEC section 7 "Project-scoped users"; issues 7, 8 and 26): which project members
 * take part in the app (policy users, monitoring users), their main role there, and the new-user requests an app
 * administrator files for someone who will take part. Policy management and monitoring share every shape; only the
 * main roles and the name of the "takes part" flag differ. The calls: docs/policies.md, docs/monitoring.md.
 */

const id = z.number().int();

/** People chosen at once (a list to add, the whole list of an app's users, a monitoring role's members). */
export const peopleIdsSchema = z
  .array(recordId)
  .max(500, 'Choose at most 500 people at once.')
  .refine((ids) => new Set(ids).size === ids.length, 'A person is listed twice.');

export const APP_USER_REQUEST_JUSTIFICATION_MAX = 2000;

function peopleContracts<R extends readonly [string, ...string[]], F extends string>(roles: R, flag: F) {
  const mainRole = z.enum(roles, 'Choose a main role.');
  /** A project member as the app's people screens list them. */
  const person = z.object({
    id,
    username: z.string(),
    name: z.string(),
    email: z.string(),
    project_role: z.enum(['admin', 'simple']),
    /** Their main role in the app; null while a user of the app has none (they see the "unconfigured" denial). */
    main_role: z.string().nullable(),
    /** Whether they take part in the app (`policy_user`, `monitoring_user`). */
    ...({ [flag]: z.boolean() } as { [K in F]: z.ZodBoolean }),
  });
  return {
    /** The name of the person's "takes part" flag. */
    flag,
    mainRole,
    person,
    /** The lists: members not in the app, the app's users (with or without a main role). */
    people: z.object({ users: z.array(person) }),
    /** The whole list of the app's users: members left out stop taking part. */
    usersBody: z.object({ user_ids: peopleIdsSchema }).strict(),
    /** Members to add to the app. */
    usersAssign: z.object({ user_ids: peopleIdsSchema.min(1, 'Choose at least one person.') }).strict(),
    /** One person's main role; null removes it (the person stays a user of the app). */
    mainRoleBody: z.object({ main_role: mainRole.nullable() }).strict(),
    mainRoleBulk: z
      .object({
        items: z
          .array(z.object({ user_id: recordId, main_role: mainRole.nullable() }).strict())
          .min(1, 'Choose at least one person.')
          .max(500, 'Change at most 500 roles at once.')
          .refine((items) => new Set(items.map((i) => i.user_id)).size === items.length, 'A person is listed twice.'),
      })
      .strict(),
    /**
     * A request to the superadmins for an account for someone who will take part in the app: filed with project
     * role "simple" and this main role.
     */
    userRequestCreate: z
      .object({
        first_name: z
          .string()
          .trim()
          .min(1, 'Enter the first name.')
          .max(100, 'First name must be at most 100 characters.'),
        last_name: z
          .string()
          .trim()
          .min(1, 'Enter the last name.')
          .max(100, 'Last name must be at most 100 characters.'),
        email: emailSchema,
        main_role: mainRole,
        justification: z
          .string()
          .trim()
          .min(1, 'Enter the justification.')
          .max(
            APP_USER_REQUEST_JUSTIFICATION_MAX,
            `Justification must be at most ${APP_USER_REQUEST_JUSTIFICATION_MAX} characters.`,
          ),
      })
      .strict(),
  };
}

/** The contracts of each app with people screens, by app code. */
export const PEOPLE_CONTRACTS = {
  policy_management: peopleContracts(POLICY_MAIN_ROLES, 'policy_user'),
  monitoring: peopleContracts(MONITORING_MAIN_ROLES, 'monitoring_user'),
};
export type PeopleApp = keyof typeof PEOPLE_CONTRACTS;
export const PEOPLE_APPS = Object.keys(PEOPLE_CONTRACTS) as PeopleApp[];
type Contracts<A extends PeopleApp> = (typeof PEOPLE_CONTRACTS)[A];

export const policyMainRoleSchema = PEOPLE_CONTRACTS.policy_management.mainRole;
export const monitoringMainRoleSchema = PEOPLE_CONTRACTS.monitoring.mainRole;
export type MonitoringMainRole = z.infer<typeof monitoringMainRoleSchema>;

/** A project member as the app's people screens list them, with the app's "takes part" flag. */
export type PeoplePerson<A extends PeopleApp> = z.infer<Contracts<A>['person']>;
export type PolicyPerson = PeoplePerson<'policy_management'>;
export type MonitoringPerson = PeoplePerson<'monitoring'>;
/** What every app's person has (the screens shared by the apps read no more). */
export type AppPerson = Omit<PolicyPerson, 'policy_user'>;

/** One item of a bulk main-role change (null removes the role). */
export type MainRoleChange<A extends PeopleApp = PeopleApp> = z.infer<Contracts<A>['mainRoleBulk']>['items'][number];
export type AppUserRequestCreate<A extends PeopleApp = PeopleApp> = z.input<Contracts<A>['userRequestCreate']>;

/** An app's people lists and one person, typed by what every app's person has (its flag is there all the same). */
export const appPeopleSchema = (app: PeopleApp) => PEOPLE_CONTRACTS[app].people as z.ZodType<{ users: AppPerson[] }>;
export const appPersonSchema = (app: PeopleApp) => PEOPLE_CONTRACTS[app].person as z.ZodType<AppPerson>;
