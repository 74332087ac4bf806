#!/usr/bin/env bash
# The obvious alternative to Print Station, measured side by side with it: a sequential
# loop that asks the service for each booked shipment's label with curl and hands it to
# lp. Arguments: BASE_URL API_KEY QUEUE IDS_FILE (one shipment id a line).
# CUPS_SERVER in the environment selects the scheduler, as for lp itself.
set -euo pipefail
base_url=$1 api_key=$2 queue=$3 ids_file=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while read -r id; do
  [ -n "$id" ] || continue
  curl -sS --fail -X POST "$base_url/shipments/print" \
    -H "x-api-key: $api_key" -H 'content-type: application/json' -H 'accept: application/pdf' \
    -d "{\"shipment_ids\":[\"$id\"],\"document_type\":\"label\",\"label_layout\":\"printer\",\"output_format\":\"file\"}" \
    -o "$work/label.pdf"
  lp -d "$queue" -t "diy $id" -o media=Custom.4x6in -o print-scaling=none "$work/label.pdf" > /dev/null
done < "$ids_file"
