#!/usr/bin/env bash
# Runs the legacy Python client's own integration suite (nano-crucible 3.1, tests/integration)
# against this service on its embedded default:
#   scripts/legacy/run.sh <path to a nano-crucible checkout> [pytest args...]
# It builds the service, starts it on a free port with a throwaway DATA_DIR, seeds the state
# the suite expects (scripts/legacy/seed.ts), runs pytest, and stops the service. The GCS-only
# multipart upload test is deselected (we are not a GCS bucket).
set -euo pipefail
CLIENT=${1:?usage: run.sh <nano-crucible checkout> [pytest args...]}
shift
CLIENT=$(cd "$CLIENT" && pwd)
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

# The client's dependencies that are not installed: from the local wheel store when present.
python3 -c 'import pytz, platformdirs, google_crc32c' 2>/dev/null ||
  pip install -q pytz platformdirs google_crc32c ||
  pip install -q --no-index --find-links "${LEGACY_WHEELS:-/opt/pypi/files}" pytz platformdirs google_crc32c
SHIM=$(mktemp -d)
python3 -c 'import mfid' 2>/dev/null || cp "$ROOT/scripts/legacy/mfid.py" "$SHIM/mfid.py"

npm run build --silent
WORK=$(mktemp -d)
PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
export DATA_DIR="$WORK/data" PORT LOG_LEVEL=${LOG_LEVEL:-warn} ADMIN_API_KEY=legacy-suite-admin-key-$(date +%s%N)
env -u DATABASE_URL node dist/src/main.js >"$WORK/service.log" 2>&1 &
SERVICE=$!
trap 'kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null; rm -rf "$WORK" "$SHIM"' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/health/ready" >/dev/null && break
  sleep 0.5
done
eval "$(env -u DATABASE_URL node dist/scripts/legacy/seed.js)"

export CRUCIBLE_API_URL="http://127.0.0.1:$PORT/api/v2" CRUCIBLE_API_KEY
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_CACHE_HOME="$WORK/home/.cache"
mkdir -p "$XDG_CONFIG_HOME"
cd "$CLIENT"
status=0
PYTHONPATH="$CLIENT:$SHIM" python3 -m pytest tests/integration -q -rs \
  --deselect tests/integration/test_files.py::test_file_upload_multipart "$@" || status=$?
if [ $status -ne 0 ]; then echo "--- service log (last 40 lines) ---"; tail -n 40 "$WORK/service.log"; fi
exit $status
