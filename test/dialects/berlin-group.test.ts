/**
 * The berlin-group dialect: builders make bodies the official NextGenPSD2 file accepts; the judge
 * passes official-valid bodies, fails what the file refuses (MUST) and only warns where the
 * harness is stricter (SHOULD); accessors read links, statuses and both error shapes.
 * Our schemas are also compared field by field with the official file (read from ../shared).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildConsent, buildFundsConfirmation, buildPaymentInitiation, detailedAccess, bgHeaders, transactionsQuery, judgeBg, judgeBgError, validateBg,
  linksOf, linkOf, scaApproachOf, errorCodesOf, errorMessagesOf, consentStatusOf, transactionsOf, fundsAvailableOf, BG_SCHEMA_LEVELS, BG_SCHEMA_NAMES,
  CONSENT_STATUSES, TRANSACTION_STATUSES, SCA_STATUSES, BALANCE_TYPES, compileAllBg,
} from '../../src/dialects/berlin-group/index.ts';
import type { BgSchemaName } from '../../src/dialects/berlin-group/index.ts';
import { bgDoc, bgSkip, deref, officialErrors, officialSchemaFor, officialValidator, unicodePattern } from './berlin-group-official.ts';
import { IBAN, consent, samples } from './berlin-group-samples.ts';

type Json = Record<string, any>;

describe('builders', () => {
  test('a consent carries every required field; a one-off consent has frequencyPerDay 1', () => {
    assert.deepEqual(Object.keys(consent).sort(), ['access', 'combinedServiceIndicator', 'frequencyPerDay', 'recurringIndicator', 'validUntil']);
    assert.deepEqual(consent.access, { accounts: [{ iban: IBAN }], balances: [{ iban: IBAN }], transactions: [{ iban: IBAN }] });
    const once = buildConsent({ access: { availableAccounts: 'allAccounts' }, recurringIndicator: false, validUntil: new Date('2026-12-01T23:00:00Z') });
    assert.equal(once.frequencyPerDay, 1);
    assert.equal(once.validUntil, '2026-12-01');
    assert.deepEqual(buildConsent({ access: { allPsd2: 'allAccountsWithOwnerName' }, validUntil: '9999-12-31', combinedServiceIndicator: true }).access, { allPsd2: 'allAccountsWithOwnerName' });
    assert.deepEqual(judgeBg('consents', once), { must: [], should: [] });
  });

  test('headers as the standard spells them; a fresh UUID X-Request-ID each time', () => {
    const h = bgHeaders({ consentId: 'c-1', psuIpAddress: '192.0.2.1', tppRedirectUri: 'https://tpp.example/cb', tppRedirectPreferred: true });
    assert.match(h['X-Request-ID'], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(bgHeaders()['X-Request-ID'], h['X-Request-ID']);
    assert.deepEqual({ ...h, 'X-Request-ID': 'x' }, { 'X-Request-ID': 'x', 'Consent-ID': 'c-1', 'PSU-IP-Address': '192.0.2.1', 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': 'https://tpp.example/cb' });
  });

  test('transaction query: bookingStatus always, dates as ISODate', () => {
    assert.equal(transactionsQuery({ dateFrom: new Date('2026-01-02T10:00:00Z'), dateTo: '2026-02-01' }).toString(), 'bookingStatus=booked&dateFrom=2026-01-02&dateTo=2026-02-01');
    assert.equal(transactionsQuery({ bookingStatus: 'both' }).toString(), 'bookingStatus=both');
  });
});

describe('judge: official-valid passes, official-invalid fails, stricter-only warns', () => {
  test('every schema compiles at both levels', () => compileAllBg());

  for (const [name, body] of Object.entries(samples) as [BgSchemaName, Json][]) {
    test(`${name}: the sample passes both levels`, () => assert.deepEqual(judgeBg(name, body), { must: [], should: [] }));
  }

  test('an unanchored-pattern gap ("EURO") is a SHOULD, a lower-case currency a MUST', () => {
    const body = structuredClone(samples.accountList) as Json;
    body.accounts[0].currency = 'EURO';
    const j = judgeBg('accountList', body);
    assert.deepEqual(j.must, []);
    assert.equal(j.should.length, 1);
    assert.equal(j.should[0].path, 'accounts[0].currency');
    assert.match(j.should[0].source, /unanchored/);
    body.accounts[0].currency = 'eur';
    assert.match(validateBg('accountList', body)[0].message, /accounts\[0\]\.currency: expected a string matching \[A-Z\]\{3\}, got "eur"/);
  });

  test('an account without resourceId is a SHOULD; without currency a MUST', () => {
    const body = structuredClone(samples.accountList) as Json;
    delete body.accounts[0].resourceId;
    const j = judgeBg('accountList', body);
    assert.deepEqual([j.must.length, j.should.map((p) => p.message)], [0, ['accounts[0]: missing required field resourceId']]);
    delete body.accounts[0].currency;
    assert.deepEqual(validateBg('accountList', body).map((p) => p.message), ['accounts[0]: missing required field currency']);
  });

  test('a consent 201 without any SCA link is a SHOULD; without _links a MUST; a bad status a MUST', () => {
    const body = { consentStatus: 'received', consentId: 'c-1', _links: { self: { href: '/v1/consents/c-1' } } };
    const j = judgeBg('consentsResponse-201', body);
    assert.equal(j.must.length, 0);
    assert.ok(j.should.length >= 1 && j.should.every((p) => /starts the SCA/.test(p.source)), JSON.stringify(j.should));
    assert.deepEqual(validateBg('consentsResponse-201', { consentStatus: 'Authorised', consentId: 'c-1' }).map((p) => p.message), [
      '(root): missing required field _links',
      `consentStatus: expected one of ${CONSENT_STATUSES.join(', ')}, got "Authorised"`,
    ]);
  });

  test('a consent request without frequencyPerDay, or with 0, is a MUST', () => {
    const { frequencyPerDay: _f, ...rest } = consent;
    assert.deepEqual(validateBg('consents', rest).map((p) => p.message), ['(root): missing required field frequencyPerDay']);
    assert.equal(validateBg('consents', { ...consent, frequencyPerDay: 0 })[0].path, 'frequencyPerDay');
    assert.equal(validateBg('consents', { ...consent, validUntil: '2026-13-45' })[0].path, 'validUntil');
  });

  test('error bodies: an empty NextGenPSD2 body is a SHOULD; problem+json without code a MUST', () => {
    const empty = judgeBgError({}, 'application/json');
    assert.deepEqual([empty.must.length, empty.should.map((p) => p.message)], [0, ['(root): missing required field tppMessages']]);
    const problem = judgeBgError({ type: 'https://bank.example/p', title: 'x' }, 'application/problem+json; charset=utf-8');
    assert.deepEqual(problem.must.map((p) => p.message), ['(root): missing required field code']);
    assert.equal(judgeBgError('<html>', 'text/html').must[0].path, '(body)');
  });
});

describe('accessors', () => {
  test('links: hrefs by name, relative ones resolved, the SCA approach told', () => {
    const body = samples['consentsResponse-201'];
    assert.equal(linkOf(body, 'scaRedirect'), 'https://bank.example/sca/c-1');
    assert.equal(linkOf(body, 'status', 'https://api.bank.example/psd2/v1/consents'), 'https://api.bank.example/v1/consents/c-1/status');
    assert.deepEqual(Object.keys(linksOf(body)).sort(), ['scaRedirect', 'scaStatus', 'self', 'status']);
    assert.equal(scaApproachOf(body), 'redirect');
    assert.equal(scaApproachOf(samples['paymentInitiationRequestResponse-201']), 'oauth');
    assert.equal(scaApproachOf({ _links: { startAuthorisationWithPsuIdentification: { href: '/x' } } }), 'explicit');
    assert.deepEqual(linksOf({ _links: { self: 'not an object', x: { href: 3 } } }), {});
  });

  test('errors: both shapes give their codes', () => {
    assert.deepEqual(errorCodesOf(samples.Error_NG), ['CONSENT_UNKNOWN']);
    assert.deepEqual(errorMessagesOf({ type: 'https://x', code: 'FORMAT_ERROR', detail: 'd', additionalErrors: [{ code: 'PERIOD_INVALID', title: 't' }] }), [
      { code: 'FORMAT_ERROR', text: 'd' }, { code: 'PERIOD_INVALID', text: 't' },
    ]);
    assert.deepEqual(errorCodesOf('nope'), []);
  });

  test('statuses, transactions and fundsAvailable, tolerant of anything', () => {
    assert.equal(consentStatusOf({ consentStatus: 'valid' }), 'valid');
    assert.equal(consentStatusOf({ consentStatus: 3 }), undefined);
    assert.equal(transactionsOf(samples['transactionsResponse-200_json']).length, 1);
    assert.deepEqual(transactionsOf({ transactions: 'x' }), []);
    assert.equal(fundsAvailableOf({ fundsAvailable: 'true' }), undefined);
    assert.equal(fundsAvailableOf({ fundsAvailable: false }), false);
  });
});

describe('against the official NextGenPSD2 1.3.12 file', { skip: bgSkip }, () => {
  for (const [name, body] of Object.entries(samples) as [BgSchemaName, Json][]) {
    test(`${name}: the sample is valid against the official schema`, () => {
      const fn = officialValidator(name);
      assert.ok(fn(body), officialErrors(fn));
    });
  }

  test('the referee can fail (a missing required field)', () => {
    const fn = officialValidator('consents');
    const { access: _a, ...rest } = consent;
    assert.equal(fn(rest), false);
  });

  /** Required lists, enums, patterns and lengths agree; we allow no field the file does not have. */
  function compare(ours: Json, official: Json | undefined, path: string, level: 'official' | 'strict', out: string[]): void {
    const off = deref(official);
    if (!off) return void out.push(`${path}: no official counterpart`);
    if (ours.type === 'array') return compare(ours.items ?? {}, off.items, `${path}[]`, level, out);
    if (ours.type === 'object') {
      const offProps = off.properties ?? {};
      for (const p of Object.keys(ours.properties ?? {})) {
        if (!(p in offProps)) out.push(`${path}.${p}: we allow a field the standard does not have`);
        else compare(ours.properties[p], offProps[p], `${path}.${p}`, level, out);
      }
      const req = (r: unknown) => JSON.stringify([...((r as string[]) ?? [])].sort());
      const extra = level === 'strict' ? STRICT_REQUIRED[path] ?? [] : [];
      const ourReq = ((ours.required as string[]) ?? []).filter((r) => !extra.includes(r));
      if (req(ourReq) !== req(off.required)) out.push(`${path}: required ${req(ourReq)} vs official ${req(off.required)}`);
      return;
    }
    if (ours.enum && JSON.stringify([...ours.enum].sort()) !== JSON.stringify([...(off.enum ?? [])].sort())) out.push(`${path}: enum differs`);
    const pattern = off.pattern && level === 'strict' ? `^${unicodePattern(off.pattern)}$` : off.pattern && unicodePattern(off.pattern);
    if (ours.pattern !== pattern) out.push(`${path}: pattern ${ours.pattern} vs official ${off.pattern}`);
    for (const k of ['maxLength', 'format', 'type']) if (ours[k] !== undefined && ours[k] !== off[k]) out.push(`${path}: ${k} ${ours[k]} vs official ${off[k]}`);
  }
  /** The documented extra required fields of the strict level (SHOULD). */
  const STRICT_REQUIRED: Record<string, string[]> = {
    'accountList.accounts[]': ['resourceId'],
    'accountDetailsResponse.account': ['resourceId'],
    'cardAccountList.cardAccounts[]': ['resourceId'],
    'cardAccountDetailsResponse.cardAccount': ['resourceId'],
    Error_NG: ['tppMessages'],
  };

  for (const name of BG_SCHEMA_NAMES) {
    for (const level of ['official', 'strict'] as const) {
      test(`${level} level of ${name} agrees with the file${level === 'strict' ? ' but for the documented strictness' : ''}`, () => {
        const out: string[] = [];
        compare(BG_SCHEMA_LEVELS[name][level] as Json, officialSchemaFor(name), name, level, out);
        // hrefType: the file requires nothing inside a link; the strict level requires href.
        assert.deepEqual(out.filter((l) => !(level === 'strict' && /\]?\.?[\w-]+: required \["href"\] vs official \[\]$/.test(l))), []);
      });
    }
  }

  test('the walker notices a difference (it can fail)', () => {
    const tampered = structuredClone(BG_SCHEMA_LEVELS.accountList.official) as Json;
    tampered.properties.accounts.items.properties.invented = { type: 'string' };
    tampered.properties.accounts.items.required = [];
    const out: string[] = [];
    compare(tampered, officialSchemaFor('accountList'), 'accountList', 'official', out);
    assert.deepEqual(out, ['accountList.accounts[].invented: we allow a field the standard does not have', 'accountList.accounts[]: required [] vs official ["currency"]']);
  });

  test('the constant lists equal the file\'s enums', () => {
    const s = bgDoc().components.schemas;
    const sorted = (a: readonly string[]) => [...a].sort();
    assert.deepEqual(sorted(CONSENT_STATUSES), sorted(s.consentStatus.enum));
    assert.deepEqual(sorted(TRANSACTION_STATUSES), sorted(s.transactionStatus.enum));
    assert.deepEqual(sorted(SCA_STATUSES), sorted(s.scaStatus.enum));
    assert.deepEqual(sorted(BALANCE_TYPES), sorted(s.balanceType.enum));
  });
});
