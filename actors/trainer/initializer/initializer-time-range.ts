const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
};
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/**
 * The history window a message asks about, in days ("last 3 weeks" 21, "this month" 30, "this
 * year" 365), or undefined when it names none. Used to choose `days_back` (spec 001 §5.3, §5.4).
 *
 * @example
 * daysBackIn('How did I do over the last 2 months?'); // 60
 */
export function daysBackIn(text: string): number | undefined {
  const lower = text.toLowerCase();
  const counted =
    /\b(\d{1,4}|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(day|week|month|year)s?\b/.exec(lower);
  if (counted) {
    const [, amount = '', unit = ''] = counted;
    const count = /^\d+$/.test(amount) ? Number(amount) : (NUMBER_WORDS[amount] ?? 1);
    const days = count * (UNIT_DAYS[unit] ?? 1);
    if (days >= 1) return Math.min(days, 3650);
  }
  if (/\b(today|yesterday)\b/.test(lower)) return 2;
  const named = /\b(this|last|past|previous)\s+(week|month|quarter|year)\b/.exec(lower);
  if (named) return { week: 7, month: 30, quarter: 90, year: 365 }[named[2] as 'week' | 'month' | 'quarter' | 'year'];
  if (/\b(all[- ]time|ever|since i started)\b/.test(lower)) return 3650;
  return undefined;
}

/**
 * The window of a `workout_history` knowledge text ("... in the last 14 days ..."); null when it
 * was fetched without one (the most recent workouts, however old).
 */
export function historyWindowOf(text: string): number | null {
  const days = /\bin the last (\d+) days\b/.exec(text)?.[1];
  return days === undefined ? null : Number(days);
}
