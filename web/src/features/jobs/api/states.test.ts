import { attemptsOf, BULK_STATES, canDiscard, canRetry, canRevive, stateLabel } from './states';

describe('job states', () => {
  it('shows attempts as n of max, never more attempts than the maximum', () => {
    expect(attemptsOf(1, 8)).toBe('1 of 8');
    expect(attemptsOf(8, 8)).toBe('8 of 8');
    expect(attemptsOf(2, 1)).toBe('2 of 2');
    expect(attemptsOf(0, 3)).toBe('0 of 3');
  });

  it('offers the single actions the API takes in each state', () => {
    expect(['retrying', 'failed'].every(canRetry)).toBe(true);
    expect(['queued', 'running', 'done', 'discarded'].some(canRetry)).toBe(false);
    expect(canDiscard('running')).toBe(false);
    expect(canRevive('discarded')).toBe(true);
    expect(canRevive('failed')).toBe(false);
  });

  it('offers bulk actions only on the sets the API takes (BulkRequest)', () => {
    expect(BULK_STATES.retry).toEqual(['retrying', 'failed', 'discarded']);
    expect(BULK_STATES.discard).toEqual(['queued', 'scheduled', 'retrying', 'failed']);
    expect(stateLabel('discarded')).toBe('Discarded');
    expect(stateLabel('lost')).toBe('lost');
    expect(stateLabel(null)).toBe('_');
  });
});
