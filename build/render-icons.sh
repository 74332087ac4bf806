#!/bin/sh
# Renders the PNG icons from their SVG sources with headless Chromium (no image tools
# needed): build/icon.png (512 px app icon) and build/tray/tray-STATE.png (16 px) plus
# tray-STATE@2x.png (32 px, picked up by Electron on HiDPI screens).
# Usage: sh build/render-icons.sh [path-to-chromium]   (default /usr/bin/chromium)
set -eu
CHROMIUM="${1:-/usr/bin/chromium}"
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

render() { # svg png size
  cat > "$WORK/page.html" <<HTML
<!doctype html><html><head><style>html,body{margin:0;padding:0;background:transparent;overflow:hidden}img{display:block;width:${3}px;height:${3}px}</style></head>
<body><img src="file://$1"></body></html>
HTML
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --hide-scrollbars --force-device-scale-factor=1 \
    --user-data-dir="$WORK/profile" --default-background-color=00000000 \
    --window-size="$3,$3" --screenshot="$2" "file://$WORK/page.html" >/dev/null 2>&1
  test -s "$2"
}

render "$HERE/icon.svg" "$HERE/icon.png" 512
for state in ok paused error offline; do
  render "$HERE/tray/tray-$state.svg" "$HERE/tray/tray-$state.png" 16
  render "$HERE/tray/tray-$state.svg" "$HERE/tray/tray-$state@2x.png" 32
done
echo "icons written to $HERE"
