import { describe, expect, it } from 'vitest';

import {
  componentSlugFromUrl,
  translationPathFromUrl,
  unitIdFromUrl,
  urlKey,
  usernameFromUrl,
} from '../../src/weblate/urls.ts';

describe('API URL helpers', () => {
  it('read ids, usernames and slugs out of API URLs, with or without format=api', () => {
    expect(unitIdFromUrl('https://w.example/api/units/123/?format=api')).toBe('123');
    expect(unitIdFromUrl('https://w.example/api/units/')).toBeNull();
    expect(unitIdFromUrl(null)).toBeNull();
    expect(usernameFromUrl('https://w.example/api/users/j%C3%B6rg.m/?format=api')).toBe('jörg.m');
    expect(usernameFromUrl('https://w.example/api/users/anonymous/')).toBe('anonymous');
    expect(
      translationPathFromUrl('https://w.example/sub/api/translations/p/c/pt_BR/?format=api'),
    ).toEqual({
      project: 'p',
      component: 'c',
      language: 'pt_BR',
    });
    expect(componentSlugFromUrl('https://w.example/api/components/p/docs%252Fguide/')).toBe(
      'guide',
    );
  });

  it('key URLs by path, so links that differ only in format=api match', () => {
    expect(urlKey('https://w.example/api/translations/p/c/cs/?format=api')).toBe(
      urlKey('https://w.example/api/translations/p/c/cs/'),
    );
    expect(urlKey('not a url')).toBe('not a url');
  });
});
