import querystring from 'node:querystring';
import { KEY_BRAND } from '../domain/keys/secret.ts';

/** A key's shape, wherever in a URL it stands. */
const KEY_SHAPE = new RegExp(`${KEY_BRAND}[0-9A-Za-z]{8,}`);

/**
 * A key sent in a URL must not reach the logs with it. A query value is redacted when its name,
 * read as the query parser reads it, holds `token` (`?%74oken=`, `?token[]=`, `?token%00=`),
 * and any part of the URL (a value under another name, escaped inside another value, a path
 * segment) that holds a key's shape once unescaped is redacted too.
 */
export function redactToken(url: string): string {
  const hidden = (part: string) => KEY_SHAPE.test(querystring.unescape(part));
  const [pathPart = '', query] = splitOnce(url, '?');
  const path = pathPart
    .split('/')
    .map((segment) => (hidden(segment) ? '[redacted]' : segment))
    .join('/');
  if (query === undefined) return path;
  const params = query.split('&').map((param) => {
    const [name = '', value] = splitOnce(param, '=');
    if (value === undefined) return hidden(name) ? '[redacted]' : name;
    if (querystring.unescape(name).toLowerCase().includes('token') || hidden(value)) return `${name}=[redacted]`;
    return hidden(name) ? `[redacted]=${value}` : param;
  });
  return `${path}?${params.join('&')}`;
}

function splitOnce(text: string, sep: string): [string, string | undefined] {
  const at = text.indexOf(sep);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
