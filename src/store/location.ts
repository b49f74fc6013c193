// Where a store lives, told apart and printed without its password; no driver is loaded here,
// so the CLI can say where its data is before it opens anything.

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function redact(url: string): string {
  if (!isPostgresUrl(url)) return url;
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
