import type { DeskContext } from '../../domain/context.ts';
import { seenText } from '../../domain/text.ts';
import type { ChatBackend, ChatReply } from '../../domain/ports.ts';
import { blockFor } from './blocks.ts';
import { sameTitled } from '../../domain/desks/sections.ts';
import { answerMailbox, answerOwe, answerPermissions, answerRenewal } from './desk-answers.ts';
import { matchIntent } from './intents.ts';
import { answerDue, answerDueNamed, answerNeedsMe, answerOverdue, answerRow, answerWaiting } from './work-answers.ts';
import { placeWindow } from './written-dates.ts';

// The answerer that needs nothing outside the server: it matches the question to what it
// knows how to answer and answers from the desk's live data. A question it cannot place gets
// an honest reply saying what it can answer.

export const CAN_ANSWER = [
  '"what is overdue?"',
  '"what needs me this week?"',
  '"what is due tomorrow?"',
  '"what are we waiting on?"',
  '"when does the lease renew?"',
  '"how much do we owe on domains?"',
  '"is the mailbox working?"',
  '"what can the desk do without asking?"',
  '"tell me about row 12"',
  'and "add a block for ..." to add a block to the desk',
];

export const CANNOT_ANSWER = `I can't answer that from the desk's records. I can answer: ${CAN_ANSWER.join(', ')}.`;

/** What the chat says to an order: it did nothing, and where the thing can be done. */
function refusal(money: boolean, grant: boolean): string {
  return [
    "I can't do that from the chat, and nothing was changed.",
    money ? 'Paying money and signing always need a person; the desk never does either on its own.' : '',
    grant ? "What the desk may do without asking is the owner's to set, on the Permissions page." : '',
    "The chat answers questions and adds blocks to the desk; to snooze, complete, draft or run a row, do it on the row's page or through its API route.",
  ]
    .filter((s) => s !== '')
    .join(' ');
}

export class BuiltinChat implements ChatBackend {
  async answer(ctx: DeskContext, asked: string): Promise<ChatReply> {
    // Read as the person sees it: a character that draws nothing must not hide an order.
    const question = seenText(asked);
    const intent = matchIntent(question);
    const reply = (answer: string): ChatReply => ({ answer, sections: [], backend: 'builtin' });
    switch (intent.type) {
      case 'add_block': {
        if (intent.subject === '') return reply('Say what the block is for, for example "add a block for invoices".');
        const block = await blockFor(ctx, intent.subject, question);
        const there = await sameTitled(ctx, block.title ?? '');
        if (there !== null) return reply(`The desk already has a block "${there}", so nothing was added.`);
        const what =
          block.kind === 'work'
            ? `it collects ${(block.kinds ?? []).map((k) => `"${k}"`).join(', ')} work`
            : block.kind === 'units'
              ? `it lists every ${block.unit}`
              : `it is a ${block.kind} block`;
        const added = (title: string) => `Added the block "${title}" to the desk: ${what}.`;
        return {
          answer: added(block.title ?? ''),
          // As saved; what kept the block off the desk is said after it (domain/chat/ask.ts).
          answerFor: (saved) => (saved[0] ? added(saved[0].title) : 'No block was added.'),
          sections: [block],
          backend: 'builtin',
        };
      }
      case 'no_block':
        return reply(`No block was added. To add one, say "add a block for ${intent.subject || '...'}".`);
      case 'change':
        return reply(refusal(intent.money, intent.grant));
      case 'row':
        return reply(await answerRow(ctx, intent.id));
      case 'overdue':
        return reply(await answerOverdue(ctx));
      case 'needs_me': {
        const w = placeWindow(ctx.today(), intent);
        return reply('ask' in w ? w.ask : await answerNeedsMe(ctx, w.days, w.window));
      }
      case 'waiting':
        return reply(await answerWaiting(ctx));
      case 'due': {
        if (intent.named.length > 0) return reply(await answerDueNamed(ctx, intent.named));
        const w = placeWindow(ctx.today(), intent);
        return reply('ask' in w ? w.ask : await answerDue(ctx, w.days, w.window));
      }
      case 'owe':
        return reply(await answerOwe(ctx));
      case 'renewal':
        return reply(await answerRenewal(ctx, intent.words));
      case 'mailbox':
        return reply(await answerMailbox(ctx));
      case 'permissions':
        return reply(await answerPermissions(ctx));
      case 'help':
        return reply(`Ask me about this desk. I can answer: ${CAN_ANSWER.join(', ')}.`);
      case 'unknown':
        return reply(CANNOT_ANSWER);
    }
  }
}
