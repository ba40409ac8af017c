/**
 * Loads a Lambda entry module by its path under functions/ (`export/http/org-apps-list`), as the local
 * process serves every route, authorizer and queue consumer of the tables with the modules the Lambdas run.
 * The path is a URL built at run time: the tables name entries in any area's folder, deeper than a
 * bundler's template-literal import resolves.
 */
export function importEntry<T>(handler: string): Promise<T> {
  return import(new URL(`../${handler}.handler.ts`, import.meta.url).href) as Promise<T>;
}
