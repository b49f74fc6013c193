// How far a snooze moves a row (P-1), apart from the snooze itself so that the \`desk\` command
// checks \`--days\` with its other flags before it loads the store.

export const SNOOZE_DEFAULT_DAYS = 3;
export const SNOOZE_MIN_DAYS = 1;
export const SNOOZE_MAX_DAYS = 365;
