import type { DeskContext } from '../../domain/context.ts';
import { dateOfInstant } from '../../domain/dates.ts';
import { isOwing, listDomains, type Domain } from '../../domain/desks/domains.ts';
import { permissionSummary } from '../../domain/desks/permissions.ts';
import { grantsOf } from '../../store/repositories/desks.ts';
import { UNGRANTABLE, PERMISSION_CLASSES } from '../../domain/vocab.ts';
import { arrangements, mailConnections, mailRecord, openWork, type Arrangement } from './facts.ts';
import {
  CLASS_WORDS,
  capitalise,
  listWords,
  mentions,
  money,
  plural,
  relativeDay,
  rowName,
  sameWord,
  sentences,
  someOf,
} from './words.ts';

// Answers about the desk around the queue: renewals, what is owed on domains, the mailbox,
// and what the desk may do without asking.

function arrangementRenewal(a: Arrangement, today: string): string {
  const with_ = a.counterparty ? ` with ${a.counterparty}` : '';
  // An ended arrangement renews on no date, whatever date it still records (as the dates block).
  if (a.status === 'ended')
    return `${a.name}${with_} has ended${a.ends_on ? `, on ${a.ends_on}` : ''}; it does not renew.`;
  const ends = a.ends_on ? `; it ends on ${a.ends_on}` : '';
  if (a.renews_on) return `${a.name}${with_} renews on ${a.renews_on}, ${relativeDay(a.renews_on, today)}${ends}.`;
  if (a.ends_on)
    return `${a.name}${with_} has no renewal date recorded; it ends on ${a.ends_on}, ${relativeDay(a.ends_on, today)}.`;
  return `${a.name}${with_} has no renewal or end date recorded.`;
}

function domainRenewal(d: Domain, today: string): string {
  return d.renewal_on
    ? `${d.name} renews on ${d.renewal_on}, ${relativeDay(d.renewal_on, today)}.`
    : `${d.name} has no renewal date recorded.`;
}

export async function answerRenewal(ctx: DeskContext, asked: readonly string[]): Promise<string> {
  const today = ctx.today();
  const all = await arrangements(ctx);
  const { items: domains } = await listDomains(ctx);
  const wantsDomains = asked.some((w) => sameWord(w, 'domain'));
  const namedArrangements =
    asked.length === 0 ? [] : all.filter((a) => mentions(asked, a.name, a.kind, a.counterparty));
  const namedDomains = domains
    .filter((d) => asked.includes(d.name.toLowerCase()) || (wantsDomains && d.renewal_on !== null))
    .sort((a, b) => (a.renewal_on ?? '9999').localeCompare(b.renewal_on ?? '9999') || a.id - b.id);
  if (namedArrangements.length > 0 || namedDomains.length > 0) {
    return [
      ...namedArrangements.map((a) => arrangementRenewal(a, today)),
      ...namedDomains.map((d) => domainRenewal(d, today)),
    ].join(' ');
  }
  const dated = all
    .filter((a) => a.renews_on !== null && a.status !== 'ended')
    .sort((a, b) => a.renews_on!.localeCompare(b.renews_on!) || a.id - b.id);
  const lead = asked.length > 0 ? `Nothing on the desk matches "${asked.join(' ')}". ` : '';
  if (dated.length === 0) return `${lead}No arrangement on the desk has a renewal date recorded.`;
  const has = dated.length === 1 ? 'has' : 'have';
  return `${lead}${capitalise(plural(dated.length, 'arrangement'))} ${has} a renewal date, soonest first. ${sentences(dated.map((a) => arrangementRenewal(a, today)))}`;
}

export async function answerOwe(ctx: DeskContext): Promise<string> {
  const { items, summary } = await listDomains(ctx);
  if (items.length === 0) return 'The desk holds no domains, so nothing is owed on them.';
  const owing = items.filter((d) => isOwing(d.status));
  if (owing.length === 0)
    return `We owe nothing on domains: none of the ${plural(items.length, 'domain')} is unpaid or in collections.`;
  const describe = (d: Domain) =>
    `${d.name} (${d.status === 'collections' ? 'in collections' : d.status}, ${money(d.amount_cents, d.currency)})`;
  const home = owing.filter((d) => d.currency === summary.currency);
  const foreign = owing.filter((d) => d.currency !== summary.currency);
  const parts = [
    `We owe ${money(summary.owing_amount, summary.currency)} on ${plural(summary.owing, 'domain')}: ${listWords(owing.map(describe))}.`,
  ];
  if (foreign.length > 0) {
    parts.push(
      `${listWords(foreign.map((d) => d.name))} ${foreign.length === 1 ? 'is' : 'are'} priced in another currency and not added to the ${money(summary.owing_amount, summary.currency)}, which covers ${plural(home.length, 'domain')}.`,
    );
  }
  if (summary.broker_configured) parts.push(`The broker is ${summary.broker}.`);
  return parts.join(' ');
}

export async function answerMailbox(ctx: DeskContext): Promise<string> {
  const mail = await mailConnections(ctx);
  const record = await mailRecord(ctx);
  const parts: string[] = [];
  const connected = mail.filter((c) => c.connected);
  const broken = mail.filter((c) => !c.connected);
  if (mail.length === 0) {
    parts.push(
      'No: no mailbox is connected. The desk prepares and records every message, but nothing leaves until one is connected.',
    );
  } else if (connected.length > 0) {
    parts.push(
      `Yes: ${listWords(connected.map((c) => `${c.name} (${c.provider})`))} ${connected.length === 1 ? 'is' : 'are'} connected.`,
    );
    if (broken.length > 0) parts.push(`${listWords(broken.map((c) => `${c.name} is ${c.status}`))}.`);
  } else {
    parts.push(
      `No: ${listWords(broken.map((c) => `${c.name} (${c.provider}) is ${c.status === 'error' ? 'in error' : c.status}`))}, so nothing leaves; messages are kept, approved but unsent.`,
    );
  }
  if (record.lastSent)
    parts.push(
      `The last message went out ${dateOfInstant(ctx.desk.timezone, record.lastSent.sent_at)}${record.lastSent.to ? ` to ${record.lastSent.to}` : ''}.`,
    );
  else if (mail.length > 0) parts.push('No message has gone out through it yet.');
  if (record.lastFailure && (!record.lastSent || record.lastFailure.at > record.lastSent.sent_at)) {
    parts.push(
      `The last send failed ${dateOfInstant(ctx.desk.timezone, record.lastFailure.at)}: ${record.lastFailure.reason}`,
    );
  }
  return parts.join(' ');
}

export async function answerPermissions(ctx: DeskContext): Promise<string> {
  const grants = await grantsOf(ctx.db, ctx.desk.id);
  const summary = await permissionSummary(ctx);
  const granted = PERMISSION_CLASSES.filter((c) => grants.has(c) && !UNGRANTABLE.includes(c));
  const asks = PERMISSION_CLASSES.filter((c) => !granted.includes(c));
  const parts: string[] = [];
  if (granted.length === 0)
    parts.push('Nothing: the owner has granted no class of work, so the desk asks before everything.');
  else parts.push(`Without asking, the desk may ${listWords(granted.map((c) => `${CLASS_WORDS[c]} (${c})`))}.`);
  parts.push(
    `It always asks before it may ${listWords(asks.map((c) => `${CLASS_WORDS[c]} (${c})`))}; paying money and signing always need a person.`,
  );
  // The rows it is doing: open, allowed and not out with somebody, as /permissions counts them (D21).
  const doing = await openWork(ctx, null, (i) => i.allowed && i.waiting_on === null);
  if (summary.with_desk === 0) parts.push('Right now it has no rows to do on its own.');
  else
    parts.push(
      `Right now it is doing ${plural(summary.with_desk, 'row')} on its own: ${someOf(doing.items.map(rowName), 10, doing.total)}.`,
    );
  return parts.join(' ');
}
