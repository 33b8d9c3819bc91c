// How the first answer to an authorisation request is read: a refusal per OIDC (an error on the
// redirect URI, in the query, the fragment or a JARM response, or a 4xx), or the bank going on.
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer } from '../support/judge.ts';
import type { ApiResult } from '../../src/client/operations.ts';

/** Why the answer is a refusal per OIDC (an error on the redirect URI, or a 4xx), or undefined when it is not. */
export function refusal(world: ConformanceWorld, r: ApiResult & { url?: string }): string | undefined {
  if (r.status >= 400 && r.status < 500) return `${r.status}`;
  const location = r.headers.location;
  if (r.status >= 300 && r.status < 400 && typeof location === 'string') {
    const redirect = world.ctx.profile.auth.redirectUri;
    const to = new URL(location, r.url ?? redirect);
    const back = new URL(redirect);
    if (to.origin !== back.origin || to.pathname !== back.pathname) return undefined;
    // The error where the response mode puts it: the query, the fragment (the hybrid flow), or a JARM response in either.
    for (const params of [to.searchParams, new URLSearchParams(to.hash.slice(1))]) {
      const answer = jarmAnswer(params.get('response')) ?? params;
      if (answer.get('error') && !answer.get('code')) return `error=${answer.get('error')}`;
    }
  }
  return undefined;
}

/** A JARM response's parameters, read (not verified: the question is only whether the bank refused). */
function jarmAnswer(response: string | null): URLSearchParams | undefined {
  const payload = response?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    return new URLSearchParams(Object.entries(claims).filter(([, v]) => typeof v === 'string') as Array<[string, string]>);
  } catch {
    return undefined;
  }
}

export function where(r: ApiResult & { url?: string }): string {
  const location = r.headers.location;
  return typeof location === 'string' ? `${r.status} to ${new URL(location, r.url ?? 'http://x').pathname}` : describeAnswer(r);
}

