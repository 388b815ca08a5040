import { describe, expect, it } from 'vitest';
import { filterCount, followBox } from '../../../src-renderer/src/components/search/search-box';

const opts = { topK: 24, strictness: 'any' as const, collections: true };

describe('the search follows the box', () => {
  it('words run with the filters; an empty box with filters browses by them alone; neither is no search', () => {
    const tags = { tags: { source: 'either' as const, shotSize: ['wide'] } };
    expect(followBox('  red car ', { ...opts, filters: tags })).toEqual({ kind: 'run', request: { kind: 'text', text: 'red car', ...opts, filters: tags } });
    expect(followBox('   ', { ...opts, filters: tags })).toEqual({ kind: 'run', request: { kind: 'text', text: '', ...opts, filters: tags } });
    expect(followBox('', { ...opts, filters: {} })).toEqual({ kind: 'clear' });
    // A tag source picked without a tag narrows nothing: still no search.
    expect(followBox('', { ...opts, filters: { tags: { source: 'service' } } })).toEqual({ kind: 'clear' });
  });

  it('counts the filters as the editor sees them: each chip pressed, each other control set', () => {
    expect(filterCount({})).toBe(0);
    // As FilterBar's cleanFilters hands them on: only what narrows.
    expect(filterCount({ tags: { source: 'either', shotSize: ['wide', 'close_up'] } })).toBe(2);
    expect(filterCount({ tags: { source: 'either', shotSize: ['wide'], cameraMovement: ['static'], people: ['group'] } })).toBe(3);
    expect(filterCount({ tags: { source: 'either', shotSize: ['wide'], exclude: { cameraMovement: ['handheld'] } } })).toBe(2);
    expect(filterCount({ tags: { source: 'either', shotSize: ['wide'] }, durationS: { min: 1, max: 3 }, folder: '/a', rating: 'favorite', keyword: 'x' })).toBe(5);
    expect(filterCount({ tags: { source: 'local' } })).toBe(0);
  });
});
