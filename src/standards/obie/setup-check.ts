/**
 * The run's set-up check of a UK bank (src/conformance/setup-check.ts says what it finds): one
 * account-access consent created with the TPP's token, its authorisation begun.
 */
import { checkSetup } from '../../conformance/setup-check.ts';
import { TppClient } from '../../client/operations.ts';
import { buildAccountAccessConsent, consentIdOf, isoDateTime } from '../../dialects/obie/index.ts';
import type { SetupCheck } from '../standard.ts';
import type { Auth } from '../../auth/index.ts';
import type { HttpClient } from '../../client/http.ts';

export const ukSetupCheck: SetupCheck = async (profile, authorisationServer, httpClient) => {
  const auth = authorisationServer as Auth;
  const http = httpClient as HttpClient;
  const client = new TppClient(profile, profile.variants[0]!, http);
  if (!client.supports('createAccountAccessConsent')) return;
  await checkSetup(profile, auth, http, async (token) => {
    const now = Date.now();
    const body = buildAccountAccessConsent({
      permissions: ['ReadAccountsBasic'],
      expirationDateTime: isoDateTime(new Date(now + 3_600_000)),
      transactionFromDateTime: isoDateTime(new Date(now - 86_400_000)),
      transactionToDateTime: isoDateTime(new Date(now)),
    });
    const created = await client.createAccountAccessConsent(body, { token });
    return created.status < 300 ? consentIdOf(created.body) : undefined;
  });
};
