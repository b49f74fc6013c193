import { isSecretSetting } from './vocab.ts';

// A connection's settings with its secrets taken out (isSecretSetting, at any depth, lists
// included): what an export writes and what the screen shows, with the paths of those that held
// a value, so each can say which were left out or are stored.

type Entry = Record<string, unknown>;

/** The settings without their secrets, at any depth (lists included), and the names of the secrets that had a value. */
export function withoutSecrets(config: Record<string, unknown>, at = ''): { kept: Entry; dropped: string[] } {
  // Without a prototype, a setting named __proto__ is a setting like any other, not the object's prototype.
  const kept: Entry = Object.create(null);
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(config)) {
    if (isSecretSetting(name)) {
      if (value !== null && value !== undefined && value !== '') dropped.push(`${at}${name}`);
      continue;
    }
    kept[name] = keptOf(value, `${at}${name}`, dropped);
  }
  return { kept, dropped };
}

/** A setting's value with the secrets inside it left out; `at` names where it is ("accounts[1]"). */
function keptOf(value: unknown, at: string, dropped: string[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => keptOf(v, `${at}[${i}]`, dropped));
  if (value === null || typeof value !== 'object') return value;
  const inner = withoutSecrets(value as Record<string, unknown>, `${at}.`);
  dropped.push(...inner.dropped);
  return inner.kept;
}
