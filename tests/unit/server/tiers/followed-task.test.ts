import { describe, expect, it } from 'vitest';
import { FollowedTask } from '../../../../server/tiers/followed-task.ts';
import type { TaskEvent } from '../../../../server/tiers/tiers-service-api.ts';
import { architectOutcome, monitorDelegation } from '../../../support/tiers/tier-exchange.ts';

/* What a followed task's watchers are told from reads of its past that overlap: only what is new. */
const delegation = monitorDelegation;
const outcome = architectOutcome('d-1');
const status = (message_id: string, s: string): TaskEvent => ({
  type: 'status',
  data: { message_id, status: s as never },
});

describe('FollowedTask', () => {
  it('tells each envelope once, a delegation as working from then on, then only its end', () => {
    const followed = new FollowedTask('ada');
    const news = (events: TaskEvent[]) => events.filter((event) => followed.isNews(event));
    const first = [{ type: 'message', data: delegation } as TaskEvent, status('d-1', 'working')];
    expect(news(first)).toEqual([first[0]]);
    // A later read replays every envelope, then each delegation's status as it stands now.
    const second = [first[0]!, { type: 'message', data: outcome } as TaskEvent, status('d-1', 'success')];
    expect(news(second)).toEqual(second.slice(1));
    expect(news(second)).toEqual([]);
  });

  it('never tells pending (only replayed) nor settled (the follower records the end itself)', () => {
    const followed = new FollowedTask('ada');
    expect(followed.isNews(status('d-2', 'pending'))).toBe(false);
    expect(followed.isNews({ type: 'settled', data: { task_id: 't', status: 'success' } })).toBe(false);
    expect(followed.isNews(status('d-2', 'timeout'))).toBe(true);
  });
});
