// oidc-provider's default configuration (not in its published types): the sandbox calls its own
// FAPI checks of request objects before adding the bank's.
declare module 'oidc-provider/lib/helpers/defaults.js' {
  import type { KoaContextWithOIDC, Client } from 'oidc-provider';
  export const defaults: {
    features: { requestObjects: { assertJwtClaimsAndHeader(ctx: KoaContextWithOIDC, claims: Record<string, unknown>, header: Record<string, unknown>, client: Client): Promise<void> } };
  };
}
