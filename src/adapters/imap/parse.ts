import { type AddressObject, simpleParser } from 'mailparser';
import type { ParsedMail } from '../../domain/ports.ts';
import { storable } from '../../domain/text.ts';
import { convert } from 'html-to-text';
import { addressKey } from '../../domain/mail/address.ts';

// A raw message, or its header block alone, as the domain reads it. Mail is hostile input: a
// message that will not parse is null, and nothing here runs or keeps what it carries.

const REPORT_PARTS = new Set(['message/delivery-status', 'message/global-delivery-status']);
const RETURNED_PARTS = new Set(['text/rfc822-headers', 'message/rfc822', 'message/global-headers', 'message/global']);

function headerBlock(content: Buffer): string {
  const text = content.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  return end >= 0 ? text.slice(0, end) : text;
}

/**
 * The text of a message in parts that names no boundary: read again as one text part, so its
 * transfer encoding and charset are undone as any part's are, and HTML is read as text.
 */
async function boundlessText(source: Buffer): Promise<string> {
  // Bytes kept as they are: latin1 maps each byte to one character and back.
  const raw = source.toString('latin1');
  const end = /\r?\n\r?\n/.exec(raw);
  if (!end) return '';
  const head = raw.slice(0, end.index).replace(/^content-type:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*/im, (line) => {
    const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(line)?.[1] ?? 'utf-8';
    return `Content-Type: text/plain; charset=${charset}`;
  });
  const again = await simpleParser(Buffer.from(head + raw.slice(end.index), 'latin1'), { skipHtmlToText: true });
  const text = (again.text ?? '').trim();
  return /<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?>/i.test(text) ? textOf({ html: text }) : text;
}

/**
 * A message that says it is in parts but names no boundary between them, or names one its body
 * never has, cannot be taken apart, and the parser finds no text in it: the sender's program
 * wrote its text as the whole body, which is then read as one part rather than lost.
 */
function partsWithoutBoundary(contentType: unknown, source: Buffer): boolean {
  if (typeof contentType !== 'object' || contentType === null) return false;
  const { value, params } = contentType as { value?: unknown; params?: Record<string, unknown> };
  if (typeof value !== 'string' || !value.toLowerCase().startsWith('multipart/')) return false;
  const boundary = params?.boundary;
  return typeof boundary !== 'string' || boundary === '' || !source.includes(`--${boundary}`, 0, 'latin1');
}

function firstAddress(from: AddressObject | AddressObject[] | undefined): {
  name: string | null;
  address: string | null;
} {
  const list = Array.isArray(from) ? from : from ? [from] : [];
  const first = list[0]?.value[0];
  return { name: first?.name?.trim() || null, address: first?.address ? addressKey(first.address) || null : null };
}

/**
 * The message's text: its text part, or its HTML read as text, whether the HTML is the whole
 * message, the one part of an alternative, or alone beside an attachment.
 */
function textOf(parsed: { text?: string | undefined; html?: string | false | undefined }): string {
  const text = (parsed.text ?? '').trim();
  if (text !== '' || typeof parsed.html !== 'string') return text;
  try {
    // A picture pasted into a message travels inside the HTML as a data: address, often larger
    // than the input read below, and would push the words after it out of reach.
    const html = parsed.html.replace(/(\ssrc\s*=\s*)(["'])data:[^"']*\2/gi, '$1$2$2');
    return convert(html, {
      limits: { maxDepth: 1000, maxInputLength: 1_000_000 },
      // A picture is read as its words (a signature's logo as "Ovens Ltd"); its source, a
      // `cid:` part name or a data: address, means nothing to the person reading the reply.
      formatters: { altText: (elem, _walk, builder) => builder.addInline(elem.attribs?.alt?.trim() ?? '') },
      // A table cell is a block of its own: "Price" and "€40" must not run together as
      // "Price€40", and a table used for layout still reads as paragraphs.
      selectors: [
        { selector: 'td', format: 'block' },
        { selector: 'th', format: 'block' },
        { selector: 'img', format: 'altText' },
      ],
    }).trim();
  } catch {
    return '';
  }
}

export async function parseMail(source: Buffer, headersOnly: boolean): Promise<ParsedMail | null> {
  try {
    const parsed = await simpleParser(headersOnly ? Buffer.concat([source, Buffer.from('\r\n\r\n')]) : source, {
      skipImageLinks: true,
      skipTextLinks: true,
      // HTML is read as text here (textOf), one way wherever it sits in the message.
      skipHtmlToText: true,
    });
    const headers: Record<string, string> = {};
    for (const h of parsed.headerLines) {
      const value = h.line
        .slice(h.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim();
      if (!(h.key in headers)) headers[h.key] = value;
    }
    const from = firstAddress(parsed.from);
    const refs = parsed.references;
    const date = headers.date && parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null;
    let deliveryStatus: string | null = null;
    let returnedHeaders: string | null = null;
    const attachments: Array<{ name: string; size: number }> = [];
    // Only a report carries back the message it is about; an e-mail attached to a person's
    // message ("Supplier quote.eml") is an attachment like any other.
    const report = /multipart\/report/i.test(headers['content-type'] ?? '');
    for (const a of parsed.attachments) {
      const type = a.contentType.toLowerCase();
      if (REPORT_PARTS.has(type)) deliveryStatus ??= a.content.toString('utf8');
      else if (report && RETURNED_PARTS.has(type)) returnedHeaders ??= headerBlock(a.content);
      else attachments.push({ name: a.filename?.trim() || 'unnamed', size: a.size ?? a.content.length });
    }
    let text = headersOnly ? '' : textOf(parsed);
    if (!headersOnly && text === '' && partsWithoutBoundary(parsed.headers.get('content-type'), source))
      text = await boundlessText(source);
    // mailparser reads a message/delivery-status part into the text; the report is then there,
    // or, in a report that names no boundary between its parts, in the whole of its text.
    if (deliveryStatus === null && report) deliveryStatus = parsed.text || text || null;
    // A message's text is stored with the reply it is read as, on either database.
    return storable({
      messageId: parsed.messageId?.trim() || null,
      inReplyTo: parsed.inReplyTo?.trim() || null,
      references: (Array.isArray(refs) ? refs : refs ? refs.split(/\s+/) : []).map((r) => r.trim()).filter(Boolean),
      fromName: from.name,
      fromAddress: from.address,
      subject: parsed.subject?.trim() ?? '',
      date,
      headers,
      text,
      attachments,
      deliveryStatus,
      returnedHeaders,
      headersOnly,
    });
  } catch {
    return null;
  }
}
