/**
 * The one JSON Schema every profile is checked against at load (before defaults are applied).
 * Each property documents its default where it has one.
 */
import { operationIds } from '../dialects/catalogue.ts';
import { baseStandard, orList, standards, versionNames, type StandardModule } from '../standards/registry.ts';
import { SECURITY_PROFILES } from './types.ts';

const selector = { type: 'string', minLength: 1 } as const;
const common = { optional: { type: 'boolean' }, name: { type: 'string' } } as const;

const step = (action: string, props: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  additionalProperties: false,
  required: ['action', ...required],
  properties: { action: { const: action }, ...common, ...props },
});

const by = { enum: ['value', 'label', 'index'] } as const;

export const driverStepSchema = {
  type: 'object',
  required: ['action'],
  properties: {
    action: { enum: ['goto', 'fill', 'click', 'select', 'tickAccounts', 'chooseDebtor', 'waitFor', 'waitForUrl', 'approve', 'reject', 'decide'] },
  },
  allOf: [
    { if: { properties: { action: { const: 'goto' } } }, then: step('goto', { url: { type: 'string', minLength: 1 } }, ['url']) },
    { if: { properties: { action: { const: 'fill' } } }, then: step('fill', { selector, value: { type: 'string' } }, ['selector', 'value']) },
    { if: { properties: { action: { const: 'click' } } }, then: step('click', { selector, waitForNavigation: { type: 'boolean' } }, ['selector']) },
    { if: { properties: { action: { const: 'select' } } }, then: step('select', { selector, value: { type: 'string' } }, ['selector', 'value']) },
    { if: { properties: { action: { const: 'tickAccounts' } } }, then: step('tickAccounts', { selector, by }, ['selector']) },
    { if: { properties: { action: { const: 'chooseDebtor' } } }, then: step('chooseDebtor', { selector, by }, ['selector']) },
    { if: { properties: { action: { const: 'waitFor' } } }, then: step('waitFor', { selector }, ['selector']) },
    { if: { properties: { action: { const: 'waitForUrl' } } }, then: step('waitForUrl', { pattern: { type: 'string', minLength: 1 } }, ['pattern']) },
    { if: { properties: { action: { const: 'approve' } } }, then: step('approve', { selector }, ['selector']) },
    { if: { properties: { action: { const: 'reject' } } }, then: step('reject', { selector }, ['selector']) },
    { if: { properties: { action: { const: 'decide' } } }, then: step('decide', { approve: selector, reject: selector }, ['approve', 'reject']) },
  ],
} as const;

const url = { type: 'string', pattern: '^https?://[^\\s]+$' } as const;
const path = { type: 'string', pattern: '^/[^\\s]*$' } as const;

/** The operations of the tpp client, as a profile's `implements` names them: every standard's catalogue. */
export const OPERATION_NAMES = operationIds();
const operationListOf = (names: readonly string[]) => ({ type: 'array', uniqueItems: true, items: { enum: names } }) as const;
/** How a client authenticates to the bank: the profile's client, and the second client of the OIDF checks. */
const CLIENT_AUTH_PROPERTIES = {
  method: { enum: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'tls_client_auth'] },
  secret: { type: 'string', minLength: 1 },
  privateKey: { type: 'string', minLength: 1 },
  privateKeyFile: { type: 'string', minLength: 1 },
  kid: { type: 'string', minLength: 1 },
  alg: { enum: ['PS256', 'RS256', 'ES256', 'EdDSA'] },
} as const;
const variantUrls = { type: 'object', additionalProperties: false, properties: { A: url, B: url } } as const;
const api = {
  type: 'object', additionalProperties: false,
  properties: { baseUrl: url, variantBaseUrls: variantUrls },
} as const;

/**
 * The profile's schema for these standards: the shared fields, each standard's own fields in their
 * place (its `profile.schema`), the dialects and published versions the registry has, and the
 * operations of their catalogues.
 */
export function profileSchemaOf(registered: readonly StandardModule[]) {
  const operationList = operationListOf(operationIds(registered));
  const shared = sharedProperties(registered, operationList);
  const properties: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shared)) {
    properties[name] = schema;
    for (const s of registered) Object.assign(properties, s.profile.schema?.[name] ?? {});
  }
  return { ...PROFILE_SCHEMA_FRAME, properties } as typeof PROFILE_SCHEMA_FRAME & { properties: ReturnType<typeof sharedProperties> & Record<string, any> };
}

/** The schema's frame: what holds whatever the standards are. */
const PROFILE_SCHEMA_FRAME = {
  $id: 'https://obtpp.dev/schemas/profile.json',
  title: 'obtpp bank profile',
  type: 'object',
  additionalProperties: false,
  // auth is required of every profile but a berlin-group bank without an authorisation server
  // (SCA by redirect, decoupled or embedded; the TPP known by its certificate): load.ts says which.
  // variants are required unless the profile names a published standard (load.ts says so).
  required: ['name', 'psu'],
  // A base URL for everything, or one per API the bank offers (account information at least: a
  // bank without CBPII or PISP leaves that API out, and its scenarios are not applicable).
  anyOf: [
    { required: ['baseUrl'] },
    { required: ['discovery'] },
    {
      required: ['apis'],
      properties: { apis: { required: ['ais'], properties: { ais: { required: ['baseUrl'] }, cof: { required: ['baseUrl'] }, pis: { required: ['baseUrl'] } } } },
    },
  ],
  // The client: the profile's own, unless a registration block leaves it to obtpp register.
  if: { not: { required: ['registration'] } },
  then: { properties: { auth: { required: ['clientId'] } } },
} as const;

/**
 * The shared fields, in the order the schema lists them (and a profile's problems follow).
 * Long: a table of the profile's fields (one JSON Schema entry each, with its documentation), not a procedure.
 */
function sharedProperties(registered: readonly StandardModule[], operationList: ReturnType<typeof operationListOf>) {
  const base = registered[0] ?? baseStandard();
  return {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1, description: 'A short name for this bank deployment.' },
    security: {
      description: "The security profile the bank's authorisation server runs (docs/security.md, \"Authorisation-server security profiles\"): fapi1-advanced (FAPI 1.0 Advanced; as the UK runs it: a signed request object by value, response_type code id_token, the answer in the fragment, its ID token a detached signature), fapi2 (FAPI 2.0: PAR only, code with PKCE S256, the iss response parameter, DPoP- or mTLS-bound tokens), fapi2-message-signing (fapi2 with a signed request object at PAR and JARM) or oauth2 (the authorization code with PKCE, PAR where offered). A name alone, or an object whose profile field names it and whose other fields override what it implies. Default: fapi1-advanced for standard uk-3.1/uk-4.0 where the bank's discovery offers code id_token, fapi2 where it requires pushed authorization requests, else oauth2; each field not given is defaulted from the bank's discovery.",
      oneOf: [
        { enum: [...SECURITY_PROFILES] },
        {
          type: 'object', additionalProperties: false,
          properties: {
            profile: { enum: [...SECURITY_PROFILES] },
            responseType: { enum: ['code', 'code id_token'], description: 'response_type. fapi1-advanced: code id_token where the bank offers it, else code with JARM; the others: code.' },
            responseMode: { enum: ['query', 'fragment', 'jwt', 'query.jwt', 'fragment.jwt'], description: 'Where the answer comes back: fragment for code id_token; jwt (JARM) for code in fapi1-advanced and fapi2-message-signing; else query.' },
            par: { type: 'boolean', description: 'Push the authorization request (RFC 9126). fapi2*: true; fapi1-advanced: where the bank requires it; oauth2: as auth.par.' },
            requestObject: { type: 'boolean', description: 'Sign the parameters into a request object (JAR). fapi1-advanced and fapi2-message-signing: true (needs auth.clientAuth.privateKey); fapi2: false; oauth2: when auth.intentBinding is request-object.' },
            pkce: { enum: ['S256', 'none'], description: 'PKCE. Default S256, except fapi1-advanced by value to a bank whose discovery advertises no S256.' },
            senderConstraint: { enum: ['mtls', 'dpop', 'none'], description: 'How tokens are bound: mtls (the profile\'s client certificate, RFC 8705), dpop (a DPoP key obtpp makes, RFC 9449) or none. Default: mtls with a client certificate where the bank binds to it; dpop where the bank advertises dpop_signing_alg_values_supported (fapi2*); else none.' },
            issParameter: { type: 'boolean', description: 'Require the authorization response\'s iss (RFC 9207) and check it before the code is used. fapi2*: true; else as the bank\'s authorization_response_iss_parameter_supported.' },
            acr: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'acr values asked for as an essential claim (e.g. urn:openbanking:psd2:sca); the ID token must carry one of them. Default: not asked.' },
            dpopAlg: { enum: ['ES256', 'PS256', 'EdDSA'], description: 'The DPoP proofs\' algorithm. Default ES256 (or the first the bank advertises).' },
          },
        },
      ],
    },
    dialect: {
      enum: registered.map((s) => s.name),
      description: `Wire format of the standard the bank speaks: ${orList(registered.map((s) => s.profile.words))}. Default '${base.name}'.${registered.map((s) => (s.profile.changes ? ` ${s.name} changes the defaults: ${s.profile.changes}` : '')).join('')}`,
    },
    variants: {
      type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['A', 'B'] },
      description: "Which variants of the specification the bank implements. Required unless standard is given (a UK Read/Write bank is judged by variant A's rules, the variant with every API).",
    },
    standard: {
      enum: versionNames(registered),
      description: registered.map((s) => s.profile.versionsWords).filter(Boolean).join(' '),
    },
    baseUrl: { ...url, description: 'Resource base URL (all variants and APIs unless variantBaseUrls or apis says otherwise). Required unless apis gives a baseUrl to ais and to each other API the bank offers (an API apis leaves out is not offered: its scenarios are not applicable).' },
    variantBaseUrls: { ...variantUrls, description: 'Per-variant resource base URLs. Default: baseUrl.' },
    apis: {
      type: 'object', additionalProperties: false,
      description: 'Per-API base URLs (ais: /aisp, cof: /cbpii, pis: /pisp in UK deployments). For an operation of API f in variant v: apis.f.variantBaseUrls.v, else apis.f.baseUrl, else variantBaseUrls.v, else baseUrl.',
      properties: { ais: api, cof: api, pis: api },
    },
    implements: {
      description: 'The operations the bank offers (as a discovery file lists its endpoints), for every variant or per variant. Default: every operation of the variant. Scenarios needing another operation are not applicable.',
      oneOf: [
        operationList,
        { type: 'object', additionalProperties: false, minProperties: 1, properties: { A: operationList, B: operationList } },
      ],
    },
    tppName: { type: 'string', minLength: 1 },
    signing: {
      type: 'object', additionalProperties: false,
      required: ['key', 'kid'],
      description: 'x-jws-signature (UK v3.1 message signing) of payment-initiation requests. key: PKCS#8 PEM or private JWK, inline (${env:NAME}) or file:PATH; kid: its kid at the directory; issuer: the http://openbanking.org.uk/iss claim (default auth.clientId); trustAnchor: the …/tan claim (default openbanking.org.uk); enabled: default true (false for a bank on a version without message signing: its signature rules are then not applicable).',
      properties: {
        key: { type: 'string', minLength: 1 },
        kid: { type: 'string', minLength: 1 },
        issuer: { type: 'string', minLength: 1 },
        trustAnchor: { type: 'string', minLength: 1 },
        enabled: { type: 'boolean' },
        certificate: { type: 'string', minLength: 1, description: 'berlin-group: the PEM certificate of key (inline or file:PATH); with it every request carries the NextGenPSD2 HTTP signature (Digest, Signature, TPP-Signature-Certificate).' },
      },
    },
    bank: {
      type: 'object', additionalProperties: false,
      description: "The bank's own keys. jwks: URL or file (file:PATH or a path) of the JWKS its x-jws-signature keys are in. signsAnswers: default true; false for a bank that does not sign its payment-initiation answers and holds a waiver for it (signingWaiver: the waiver's reference, required then): SEC-09 is then not applicable, naming the waiver; without it, an answer without x-jws-signature fails SEC-09.",
      properties: {
        jwks: { type: 'string', minLength: 1 },
        signsAnswers: { type: 'boolean' },
        signingWaiver: { type: 'string', minLength: 1 },
        requiresSignedRequests: { type: 'boolean', description: 'berlin-group: the bank refuses requests without the NextGenPSD2 HTTP signature (needs signing.key and signing.certificate).' },
        signingCertificate: { type: 'string', minLength: 1, description: 'berlin-group: the PEM certificate (inline or file:PATH) the bank signs its answers with; given, the Digest and Signature of its answers are verified.' },
      },
      if: { properties: { signsAnswers: { const: false } }, required: ['signsAnswers'] },
      then: { required: ['signingWaiver'] },
    },
    paths: {
      type: 'object', additionalProperties: false,
      description: 'Path overrides. Defaults: /account-access-consents, /accounts, /{AccountId}/transactions/{resourceId}, /funds-confirmation-consents, /funds-confirmations, payment product domestic-payments.',
      properties: {
        accountAccessConsents: path,
        accounts: path,
        cardAccounts: { ...path, description: 'NextGenPSD2 card accounts (berlin-group only; default /v1/card-accounts).' },
        transactionDetail: path,
        fundsConfirmationConsents: path,
        fundsConfirmations: path,
        paymentProduct: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
        paymentsPrefix: { type: 'string', pattern: '^(/[^\\s]*)?$' },
        paymentStatus: { type: 'string', pattern: '^/[^\\s]*\\{paymentId\\}[^\\s]*$', description: "Where a payment's status is read (PIS-03), under paymentsPrefix; {payment-product} and {paymentId} are filled in. Default /{payment-product}/{paymentId}/status; a bank whose status lives in the payment consent itself: /{payment-product}/{paymentId}." },
        paymentOrders: { type: 'string', pattern: '^/[^\\s]*$', description: 'Where payment orders are submitted (POST) and read (GET …/{DomesticPaymentId}); {payment-product} is filled in. Default /{payment-product} (the seed: the consent and the order share the collection); a UK bank: /domestic-payments with paymentProduct domestic-payment-consents.' },
      },
    },
    auth: {
      type: 'object', additionalProperties: false,
      required: ['redirectUri'],
      anyOf: [{ required: ['issuer'] }, { required: ['discoveryUrl'] }],
      allOf: [
        { if: { required: ['clientId'] }, then: { required: ['clientAuth'] } },
        { if: { required: ['clientAuth'] }, then: { required: ['clientId'] } },
      ],
      properties: {
        issuer: url,
        discoveryUrl: url,
        clientId: { type: 'string', minLength: 1, description: 'The client the bank issued obtpp. Absent (with clientAuth) in a profile with a registration block: the TPP commands use the client obtpp register issued (the session state); given, it takes precedence over a registered one.' },
        clientAuth: {
          type: 'object', additionalProperties: false,
          required: ['method'],
          properties: CLIENT_AUTH_PROPERTIES,
          allOf: [
            { if: { properties: { method: { enum: ['client_secret_basic', 'client_secret_post'] } } }, then: { required: ['secret'] } },
            { if: { properties: { method: { const: 'private_key_jwt' } } }, then: { anyOf: [{ required: ['privateKey'] }, { required: ['privateKeyFile'] }] } },
          ],
        },
        redirectUri: url,
        secondClient: {
          type: 'object', additionalProperties: false, required: ['clientId', 'clientAuth'],
          description: 'A second client of the TPP at the bank (its own id and key), for the checks of the OpenID Foundation\'s FAPI modules that need another client: another client\'s authorization code, request_uri or consent must be refused (SEC-20, SEC-22, SEC-24). Without it those checks are not judged.',
          properties: {
            clientId: { type: 'string', minLength: 1 },
            clientAuth: {
              type: 'object', additionalProperties: false, required: ['method'],
              properties: CLIENT_AUTH_PROPERTIES,
            },
            redirectUri: url,
          },
        },
        scopes: {
          type: 'object', additionalProperties: false,
          description: "Scope per function. Defaults: ais 'accounts', cof 'fundsconfirmations', pis 'payments'.",
          properties: { ais: { type: 'string' }, cof: { type: 'string' }, pis: { type: 'string' } },
        },
        intentBinding: {
          type: 'object', additionalProperties: false,
          required: ['method'],
          description: "How the intent id reaches the authorisation. Default: claims (openbanking_intent_id).",
          properties: {
            method: { enum: ['claims', 'request-object', 'scope', 'query'] },
            parameter: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$' },
            scopeTemplate: { type: 'string', minLength: 1 },
            requestObjectTyp: { type: 'string', minLength: 1 },
          },
          if: { properties: { method: { const: 'query' } } },
          then: { required: ['parameter'] },
        },
        resource: url,
        offlineAccess: { type: 'boolean' },
        par: { enum: ['auto', 'always', 'never'], description: 'Pushed authorization requests (RFC 9126): auto (default) where the bank\'s discovery advertises pushed_authorization_request_endpoint; always (a bank without one is a profile error); never (the plain authorization URL).' },
        pkce: { enum: ['required', 'optional'], description: 'Whether the bank requires PKCE (the SEC-13 check): required judges a request without code_challenge at MUST level; optional: not judged unless the bank offers PAR (FAPI requires PKCE there). Absent: judged on the bank\'s discovery (S256 advertised: a SHOULD).' },
      },
    },
    psu: {
      type: 'object', additionalProperties: false,
      required: ['username', 'password', 'driver'],
      properties: {
        username: { type: 'string', minLength: 1 },
        password: { type: 'string', minLength: 1 },
        accounts: {
          description: "Accounts to tick when a journey does not say (obtpp consent authorise): 'all', 'first', 'first:N', or a list of AccountIds, identifications or names. Default all. The conformance run makes its own choice by position.",
          oneOf: [
            { type: 'string', pattern: '^(all|first|first:[1-9][0-9]*)$' },
            { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
          ],
        },
        driver: {
          type: 'object',
          required: ['kind'],
          properties: { kind: { enum: ['sandbox', 'manual', 'steps'] } },
          allOf: [
            { if: { properties: { kind: { const: 'sandbox' } } }, then: { additionalProperties: false, properties: { kind: {} } } },
            { if: { properties: { kind: { const: 'manual' } } }, then: { additionalProperties: false, properties: { kind: {}, callbackPort: { type: 'integer', minimum: 0, maximum: 65535 } } } },
            {
              if: { properties: { kind: { const: 'steps' } } },
              then: {
                additionalProperties: false, required: ['steps'],
                properties: { kind: {}, steps: { type: 'array', minItems: 1, items: driverStepSchema }, loginError: selector, consentError: selector },
              },
            },
          ],
        },
      },
    },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    mtls: {
      type: 'object', additionalProperties: false,
      properties: {
        cert: { type: 'string' }, key: { type: 'string' }, ca: { type: 'string' },
        certFile: { type: 'string' }, keyFile: { type: 'string' }, caFile: { type: 'string' },
      },
    },
    registration: {
      type: 'object', additionalProperties: false,
      description: 'Dynamic client registration (OBIE DCR 3.3 / RFC 7591): obtpp register, and the @dcr rules.',
      properties: {
        softwareStatement: { type: 'string', minLength: 1, description: 'The software statement assertion (SSA, a JWT) the directory issued; a secret: ${env:NAME}.' },
        softwareStatementFile: { type: 'string', minLength: 1, description: 'A file holding the SSA.' },
        key: { type: 'string', minLength: 1, description: 'The private key (PKCS#8 PEM or JWK) that signs the registration request JWT; a secret.' },
        keyFile: { type: 'string', minLength: 1 },
        kid: { type: 'string', minLength: 1, description: 'The kid of that key, as the directory publishes it.' },
        alg: { type: 'string', minLength: 1, description: 'JWS alg of the request JWT. Default PS256.' },
        endpoint: url,
        tokenEndpointAuthMethod: { enum: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'tls_client_auth'], description: 'Asked for the registered client. Default client_secret_basic.' },
        redirectUris: { type: 'array', minItems: 1, items: url, description: 'Default [auth.redirectUri].' },
        scope: { type: 'string', minLength: 1, description: 'Default the scopes of auth.scopes and openid.' },
      },
      anyOf: [{ required: ['softwareStatement'] }, { required: ['softwareStatementFile'] }],
    },
    tls: {
      type: 'object', additionalProperties: false,
      properties: { insecure: { type: 'boolean', description: 'Skip TLS certificate verification. Default false; a loud warning is printed.' } },
    },
    timeouts: {
      type: 'object', additionalProperties: false,
      properties: {
        requestMs: { type: 'integer', minimum: 1, description: 'Per HTTP request. Default 10000.' },
        browserStepMs: { type: 'integer', minimum: 1, description: 'Per step in the bank pages. Default 10000.' },
        authorisationMs: { type: 'integer', minimum: 1, description: 'Whole PSU journey. Default 60000.' },
      },
    },
    limits: {
      type: 'object', additionalProperties: false,
      properties: { maxBodyBytes: { type: 'integer', minimum: 1, description: 'Largest body read from the bank, on every path: the API, and the authorisation server (discovery, JWKS, token, PAR, registration). A longer answer is cut at this many bytes and fails (a verdict in conform, exit 3 in the CLI). Default 1 MiB (1048576).' } },
    },
  } as const;
}

/** The profile's schema for the package's own standards (what the build compiles; registry.ts may add more at run time). */
export const profileSchema = profileSchemaOf(standards());
