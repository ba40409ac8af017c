import { describe, expect, it } from 'vitest';
import { APP_NAME_ID, appNameIdOf, isAppNameId, slugify, validateSlug } from '../../functions/tenancy/domain/app';
import { DomainError } from '../../functions/kernel/domain/errors';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

describe('slugify', () => {
  it.each([
    ['Test App', 'test-app'],
    ['  Hello,   World!  ', 'hello-world'],
    ['Crème Brûlée Über', 'creme-brulee-uber'],
    ['a--b__c', 'a-b-c'],
    ['ACME 2000', 'acme-2000'],
    ['---', 'app'],
    ['日本語', 'app'],
    ['', 'app'],
  ])('%j -> %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('keeps at most 48 characters and never ends on a dash', () => {
    const slug = slugify(`${'a'.repeat(47)} b c d e f`);
    expect(slug.length).toBeLessThanOrEqual(48);
    expect(slug).toBe('a'.repeat(47));
    expect(slugify('x'.repeat(100))).toBe('x'.repeat(48));
  });

  it('always produces a valid slug', () => {
    for (const name of ['Test App', 'Ünïcödé!!', '  -- a -- ', 'A'.repeat(200), '🙂 smile', 'tab\tand\nnewline']) {
      const slug = slugify(name);
      expect(slug).toMatch(SLUG);
      expect(validateSlug(slug)).toBe(slug);
    }
  });
});

describe('validateSlug', () => {
  it('rejects anything that is not lower-case words joined by single dashes, or longer than 48', () => {
    for (const bad of ['', 'Upper', 'with space', '-lead', 'trail-', 'double--dash', 'under_score', 'a'.repeat(49)]) {
      expect(() => validateSlug(bad), bad).toThrow(DomainError);
    }
    expect(validateSlug('a'.repeat(48))).toBe('a'.repeat(48));
  });
});

describe('appNameId', () => {
  it('is `<slug>-<number>`', () => {
    expect(appNameIdOf('test-app', 1001)).toBe('test-app-1001');
    expect(isAppNameId('test-app-1001')).toBe(true);
    const m = APP_NAME_ID.exec('test-app-1001');
    expect(m?.[1]).toBe('test-app');
    expect(m?.[2]).toBe('1001');
  });

  it('rejects values without a trailing number or with a malformed slug', () => {
    for (const bad of ['test-app', 'test-app-', '-1001', 'Test-App-1001', 'test_app-1001', 'test-app-10a', '1001']) {
      expect(isAppNameId(bad), bad).toBe(false);
    }
  });

  it('round-trips any slugified name', () => {
    for (const name of ['Support Bot', 'Crème', '42']) {
      expect(isAppNameId(appNameIdOf(slugify(name), 1234))).toBe(true);
    }
  });
});
