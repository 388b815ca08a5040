#!/usr/bin/env bash
# Makes resources/models/mobilefacenet-int8.onnx from the float MobileFaceNet in ../shared/models/face-embedding
# (or $1), calibrated on the sample clips (or the clips given after it), and reports how far its embeddings
# are from the float model's on crops calibration did not see. Needs python3 with onnx and numpy
# (Debian: python3-onnx python3-numpy). A maintainer's tool: the app ships the result and runs nothing of this.
set -euo pipefail
cd "$(dirname "$0")/../.."
FLOAT=${1:-../shared/models/face-embedding/mobilefacenet.onnx}
shift || true
CLIPS=("$@")
if [ ${#CLIPS[@]} -eq 0 ]; then CLIPS=(../shared/media/videos/*.mp4 ../shared/media/videos/*.mkv ../shared/media/videos/*.avi ../shared/media/videos/*.webm); fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PY=${PYTHON:-/usr/bin/python3}
"$PY" scripts/models/face-embedding-qdq.py expose "$FLOAT" "$WORK/all-outputs.onnx"
npx tsx scripts/models/face-embedding-crops.ts calibrate "$WORK/all-outputs.onnx" "$WORK/ranges.json" "${CLIPS[@]}"
"$PY" scripts/models/face-embedding-qdq.py quantize "$FLOAT" "$WORK/ranges.json" resources/models/mobilefacenet-int8.onnx
npx tsx scripts/models/face-embedding-crops.ts check "$FLOAT" resources/models/mobilefacenet-int8.onnx "${CLIPS[@]}"
sha256sum resources/models/mobilefacenet-int8.onnx
