/** Confirmation of funds (XS2A, PIIS, variants A and B), with the faults that bend it. */
import type { FaultDeclaration } from '../fault-declaration.ts';
import { balances, CURRENCY, parseBgAmount, piisActivated } from './data.ts';
import { AB, BgError, format, isObject, route, type BgRoute, type Reply, type Req, type Xs2aContext } from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const FUNDS_FAULTS = [
  { name: 'bg-funds-balance-disclosed', rule: 'COF-04', description: 'POST /v1/funds-confirmations discloses the account\'s balance next to fundsAvailable', kind: 'rule' },
  { name: 'bg-funds-always-true', rule: 'COF-05', description: 'POST /v1/funds-confirmations answers fundsAvailable true for any amount', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

function confirmFunds(k: Xs2aContext, r: Req): Reply {
  const { store, faults } = k;
  const b = r.body;
  if (!isObject(b)) throw format('the body must be a JSON object');
  if (!isObject(b.account)) throw format('account is required', 'account');
  if (typeof b.account.iban !== 'string') throw format('account must name the account by iban', 'account.iban');
  if (!isObject(b.instructedAmount)) throw format('instructedAmount is required', 'instructedAmount');
  const amount = parseBgAmount(b.instructedAmount.amount);
  if (amount === undefined || amount < 0) throw format('instructedAmount.amount must be a positive amount (up to 14 digits and 3 decimals)', 'instructedAmount.amount');
  if (typeof b.instructedAmount.currency !== 'string' || !/^[A-Z]{3}$/.test(b.instructedAmount.currency)) throw format('instructedAmount.currency must be an ISO 4217 code', 'instructedAmount.currency');
  if (b.instructedAmount.currency !== CURRENCY) throw new BgError(400, 'FORMAT_ERROR', `the accounts here are held in ${CURRENCY}`, 'instructedAmount.currency');
  const found = store.byIban(b.account.iban);
  if (!found) throw new BgError(400, 'RESOURCE_UNKNOWN', 'no such account', 'account.iban');
  if (!piisActivated(found.psu)) throw new BgError(400, 'NO_PIIS_ACTIVATION', 'the PSU has not activated confirmation of funds for this account');
  const available = found.account.booked + found.account.creditLine;
  const body: Record<string, unknown> = { fundsAvailable: faults.has('bg-funds-always-true') || available >= amount };
  if (faults.has('bg-funds-balance-disclosed')) body.balances = balances(found.account, new Date(store.now()));
  return { status: 200, body };
}

/** The routes of confirmation of funds. */
export const FUNDS_ROUTES: BgRoute[] = [
  route(AB, 'POST', '/v1/funds-confirmations', confirmFunds, 'confirmFunds'),
];
