/**
 * Problems `check-agent` reports about an agent's key set, card and key directory (2.4, 4.3, 5.2 fetch rules).
 * These are this project's codes (the spec names none for them); each maps to the requirement it breaks.
 */
export const AGENT_CHECK_PROBLEMS = Object.freeze({
  documentUnreachable: 'document_unreachable',
  documentNotJson: 'document_not_json',
  keySetNotJwkSet: 'key_set_not_jwk_set',
  keySetEmpty: 'key_set_empty',
  keySetTooManyKeys: 'key_set_too_many_keys',
  keySetEntriesOverLimit: 'key_set_entries_over_limit',
  keySetNoUsableKey: 'key_set_no_usable_key',
  keyNotEd25519: 'key_not_ed25519',
  keyUseNotSig: 'key_use_not_sig',
  keyUseMissing: 'key_use_missing',
  keyDuplicate: 'key_duplicate',
  keyKidDuplicate: 'key_kid_duplicate',
  keyPrivate: 'key_private_member',
  keyInvalidX: 'key_invalid_x',
  keyIsTestKey: 'key_is_rfc9421_test_key',
  keyRsaBesideEd25519: 'key_rsa_beside_ed25519',
  cardNotObject: 'card_not_object',
  cardCarriesKey: 'card_carries_key',
  cardClientId: 'card_client_id_not_card_url',
  cardUrl: 'card_url_not_agent_url',
  cardKeySetMissing: 'card_key_set_missing',
  cardKeySetBoth: 'card_key_set_both',
  cardJwksUri: 'card_jwks_uri_not_key_set_url',
  directoryMissing: 'key_directory_missing',
  directoryMediaType: 'key_directory_media_type',
  directoryNotKeys: 'key_directory_not_keys',
  directoryEntryInvalid: 'key_directory_entry_invalid',
  directoryDuplicate: 'key_directory_duplicate_thumbprint',
  directoryLacksAgentKey: 'key_directory_lacks_agent_key',
});

export type AgentCheckProblemCode = (typeof AGENT_CHECK_PROBLEMS)[keyof typeof AGENT_CHECK_PROBLEMS];
