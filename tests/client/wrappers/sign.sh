#!/usr/bin/env bash
# A client-mode wrapper around `agent-platform-conformance sign` and curl (docs/client-mode.md): it signs the case's
# request with the agent's key and sends it once. It buys nothing, so run it on the signer cases:
#
#   agent-platform-conformance run --client-command 'tests/client/wrappers/sign.sh' --only signed-get --only signed-post --allow-insecure-fixtures
#
# CLIENT_KEY_FILE is the agent's private JWK (keygen writes one), CLIENT_AGENT_URL its agent URL, where its key set and
# card are published. CONFORMANCE_CLI is how to call the command line (default: npx agent-platform-conformance).
set -euo pipefail
sign_args=(--key "$CLIENT_KEY_FILE" --agent-url "$CLIENT_AGENT_URL" --method "$APC_REQUEST_METHOD" --url "$APC_REQUEST_URL")
curl_args=(--silent --show-error --output /dev/null --write-out "$APC_CASE: %{http_code}\n" --request "$APC_REQUEST_METHOD")
if [[ -n "$APC_REQUEST_BODY" ]]; then
  sign_args+=(--body "$APC_REQUEST_BODY")
  curl_args+=(--data-binary "@$APC_REQUEST_BODY" --header "Content-Type: $APC_REQUEST_CONTENT_TYPE")
fi
# shellcheck disable=SC2086 # CONFORMANCE_CLI is a command line of several words
signed=$(${CONFORMANCE_CLI:-npx agent-platform-conformance} sign "${sign_args[@]}" 2>/dev/null)
while IFS= read -r header; do curl_args+=(--header "$header"); done <<<"$signed"
curl "${curl_args[@]}" "$APC_REQUEST_URL"
