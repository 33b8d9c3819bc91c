/**
 * Signing baskets (the Signing Baskets Service): POST /v1/signing-baskets, GET …/{basketId} and
 * …/status. A basket names consents and payments not yet authorised; one SCA of the basket
 * authorises them all. Its transactionStatus has a list of its own (`transactionStatus_SBS`).
 */
import { closedEnum, levels, linksObject, psuMessage, SCA_LINKS, str, tppMessage } from './common.ts';
import { createLinks } from './consents.ts';
import { scaMembers } from './members.ts';

/** `MessageCode2XX`: the one code of a 2xx answer's tppMessages (`tppMessage2XX`). */
const CODES_2XX = ['WARNING'] as const;

/** `transactionStatus_SBS`: the codes a basket's transactionStatus takes (the file's enum). */
export const BASKET_TRANSACTION_STATUSES = ['ACSC', 'ACTC', 'PATC', 'RCVD', 'RJCT', 'CANC'] as const;
/** The basket's statuses once every member is authorised (ACTC; ACSC where the bank also executed). */
export const BASKET_AUTHORISED_STATUSES = ['ACTC', 'ACSC'] as const;

/**
 * `_linksSigningBasket`: a create's links but `confirmation`, which the file does not list for a
 * basket; unlike the other link objects the file leaves any other member free (no
 * additionalProperties), so this one does too.
 */
function basketLinks(level: 'official' | 'strict', create: boolean): object {
  const links = (create ? createLinks(level) : linksObject(level, [...SCA_LINKS, 'self', 'status', 'scaStatus'])) as { properties: Record<string, unknown>; additionalProperties?: unknown };
  const { confirmation: _none, ...properties } = links.properties;
  const { additionalProperties: _free, ...rest } = links;
  return { ...rest, properties };
}

/** `paymentIdList` / `consentIdList`: at least one id. */
const idList = { type: 'array', minItems: 1, items: str } as const;

/** The body of POST /v1/signing-baskets (`signingBasket`): the file requires neither list ("at least one entry" is its words, not its schema). */
export const signingBasket = levels(() => ({
  type: 'object',
  properties: { paymentIds: idList, consentIds: idList },
}));

/** The 201 (`signingBasketResponse-201`): like a create's, its _links start the basket's SCA. */
export const signingBasketResponse201 = levels((level) => ({
  type: 'object',
  required: ['transactionStatus', 'basketId', '_links'],
  properties: {
    transactionStatus: closedEnum(BASKET_TRANSACTION_STATUSES),
    basketId: str,
    ...scaMembers,
    _links: basketLinks(level, true),
    psuMessage,
    tppMessages: { type: 'array', items: { ...tppMessage, properties: { ...tppMessage.properties, code: closedEnum(CODES_2XX) } } },
  },
}));

/** GET /v1/signing-baskets/{basketId} (`signingBasketResponse-200`): the members as the file names them here (`payments`, `consents`). */
export const signingBasketResponse200 = levels((level) => ({
  type: 'object',
  required: ['transactionStatus'],
  // No SCA link is expected of a read (the basket may be authorised by then): the links as such, at either level.
  properties: { payments: idList, consents: idList, transactionStatus: closedEnum(BASKET_TRANSACTION_STATUSES), _links: basketLinks(level, false) },
}));

/** GET /v1/signing-baskets/{basketId}/status (`signingBasketStatusResponse-200`). */
export const signingBasketStatusResponse200 = levels(() => ({
  type: 'object',
  required: ['transactionStatus'],
  properties: { transactionStatus: closedEnum(BASKET_TRANSACTION_STATUSES) },
}));
