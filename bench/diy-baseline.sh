#!/usr/bin/env bash
# The obvious alternative to Print Station, measured side by side with it: a sequential
# loop that asks the service for each booked shipment's label with curl and hands it to
# lp. Arguments: BASE_URL API_KEY QUEUE IDS_FILE [LAYOUT] (one shipment id a line; LAYOUT is
# the label_layout, default `printer` = one 4x6 label a page; a sheet layout such as 2x2
# prints each label alone on its own A4 sheet, as such a loop does).
# CUPS_SERVER in the environment selects the scheduler, as for lp itself.
set -euo pipefail
base_url=$1 api_key=$2 queue=$3 ids_file=$4 layout=${5:-printer}
if [ "$layout" = printer ]; then media=(-o media=Custom.4x6in -o print-scaling=none); else media=(-o media=A4); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while read -r id; do
  [ -n "$id" ] || continue
  curl -sS --fail -X POST "$base_url/shipments/print" \
    -H "x-api-key: $api_key" -H 'content-type: application/json' -H 'accept: application/pdf' \
    -d "{\"shipment_ids\":[\"$id\"],\"document_type\":\"label\",\"label_layout\":\"$layout\",\"output_format\":\"file\"}" \
    -o "$work/label.pdf"
  lp -d "$queue" -t "diy $id" "${media[@]}" "$work/label.pdf" > /dev/null
done < "$ids_file"
