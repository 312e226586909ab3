/**
 * The reference client of client mode (docs/client-mode.md): an agent's signer (5.2) and buyer (7.4) as the spec asks,
 * with the choices a conformant client may make otherwise and the faults the self-test switches on.
 */
export { runReferenceClient, decideNext, clientIdentity, clientDocuments, type ReferenceClientOptions, type ClientTrace } from './client.js';
export { planSignature, signPlan, COVERED_WHEN_SENT, type SignPlan, type LabelPlan, type OutgoingRequest } from './sign.js';
export { readClientEnvironment, CLIENT_VARIABLES, SYSTEM_CLIENT_CLOCK } from './environment.js';
export type { ClientEnvironment, ClientClock, ClientIdentity, ClientChoices, ClientFault, Payment, BuyerAnswer, NextStep, BuyerState } from './types.js';
