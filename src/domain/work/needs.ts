import type { WorkItem } from './derive.ts';

// Whether a row is waiting on the owner, read off the action derive.ts gave it: approving a
// message, doing a person's step, saying who it goes to, letting the desk prepare it, looking
// at a failure, or chasing somebody when the desk may not chase on its own.

const PERSON_ACTIONS = ['approve', 'own', 'answer', 'prepare', 'fix'];

export function needsPerson(item: Pick<WorkItem, 'action' | 'allowed'>): boolean {
  const type = item.action?.type;
  if (!type) return false;
  if (PERSON_ACTIONS.includes(type)) return true;
  return type === 'nudge' && !item.allowed;
}
