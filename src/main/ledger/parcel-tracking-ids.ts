/** `packages[].tracking_ids` of a service record; null when `data` has no packages (not a full record). */
export function parcelTrackingIds(data: unknown): string[] | null {
  const packages = (data as { packages?: unknown } | null | undefined)?.packages;
  if (!Array.isArray(packages)) return null;
  const ids: string[] = [];
  for (const p of packages) {
    const list = (p as { tracking_ids?: unknown } | null)?.tracking_ids;
    if (!Array.isArray(list)) continue;
    for (const id of list) if (typeof id === 'string' && id.trim()) ids.push(id.trim());
  }
  return ids;
}
