/**
 * Install settings as stored (PROTOCOL.md §14.1): the published `install_params` / `integration_types_config` bodies
 * (already validated by `modify-schema.ts`) turned into the application's profile values. Shared by
 * `PATCH /applications/@me` and the configuration.
 */
import type { ApplicationProfile, InstallParams } from '../../store/types.js';

type InstallParamsBody = { scopes: string[]; permissions: string } | null | undefined;
type ContextBody = { oauth2_install_params?: InstallParamsBody } | null | undefined;
export type IntegrationTypesConfigBody = { '0'?: ContextBody; '1'?: ContextBody } | null;

export function installParams(value: InstallParamsBody): InstallParams | null {
  return value ? { scopes: value.scopes, permissions: value.permissions } : null;
}

/** The edited contexts: null clears both; a context absent from the object keeps its value. */
export function integrationTypesConfig(
  current: ApplicationProfile['integrationTypesConfig'],
  body: IntegrationTypesConfigBody,
): ApplicationProfile['integrationTypesConfig'] {
  const context = (key: '0' | '1') =>
    body === null ? null : body[key] === undefined ? current[key] : installParams(body[key]?.oauth2_install_params);
  return { '0': context('0'), '1': context('1') };
}
