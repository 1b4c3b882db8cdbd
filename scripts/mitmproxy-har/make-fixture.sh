#!/bin/sh
# Makes codecs/capture/fixtures/mitmproxy-websocket.har: mitmproxy itself writes the HAR.
# Needs mitmdump (pip install mitmproxy==11.0.2, the newest for Python 3.11) and node_modules.
#   sh scripts/mitmproxy-har/make-fixture.sh [path/to/mitmdump]
set -eu
MITMDUMP=${1:-mitmdump}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT="$ROOT/codecs/capture/fixtures/mitmproxy-websocket.har"
export UPSTREAM_PORT=${UPSTREAM_PORT:-18765} PROXY_PORT=${PROXY_PORT:-18766}
cd "$ROOT"
rm -f "$OUT"
node "$HERE/traffic.mjs" server & SERVER=$!
trap 'kill "$SERVER" "$MITM" 2>/dev/null || true' EXIT
"$MITMDUMP" -q --mode "reverse:http://127.0.0.1:$UPSTREAM_PORT" --listen-host 127.0.0.1 --listen-port "$PROXY_PORT" \
  --set hardump="$OUT" & MITM=$!
# Wait (up to 60 s) for mitmdump to listen.
i=0
until node -e "require('net').connect($PROXY_PORT,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; do
  i=$((i + 1)); [ "$i" -lt 120 ] || { echo "mitmdump did not start" >&2; exit 1; }; sleep 0.5
done
node "$HERE/traffic.mjs" client
kill -INT "$MITM"; wait "$MITM" || true
kill -TERM "$SERVER"; wait "$SERVER" || true
echo "wrote $OUT"
