import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { landingUrl } from './citation-record';
import { datestamp, xmlEl } from './oai-xml';

export interface SitemapDeps {
  /** PUBLIC_BASE_URL */
  baseUrl: string;
  /** URLs per sitemap file (SITEMAP_FILE_URLS) */
  fileUrls: number;
}

/**
 * The sitemaps of the published publications' landing pages (docs/publications.md,
 * "Harvesting"): an index of files, the first holding the home page, then landing pages by id.
 */
export class SitemapService {
  constructor(private readonly deps: SitemapDeps) {}

  /** How many sitemap files there are: the first holds the home page, then landing pages by id. */
  async sitemapFiles(em: EntityManager): Promise<number> {
    const [row] = await rawQuery<{ n: number }>(
      em,
      `select count(*)::int as n from publication where state = 'published'`,
    );
    return Math.max(1, Math.ceil((row.n + 1) / this.deps.fileUrls));
  }

  /** The sitemap index: `/sitemaps/{n}.xml` for every file. */
  async sitemapIndex(em: EntityManager): Promise<string> {
    const files = await this.sitemapFiles(em);
    const entries = Array.from(
      { length: files },
      (_, i) => `<sitemap>${xmlEl('loc', `${this.deps.baseUrl}/sitemaps/${i + 1}.xml`)}</sitemap>`,
    );
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</sitemapindex>\n`
    );
  }

  /**
   * Sitemap file `n` (from 1), or null when there is none: the landing pages of published
   * publications in the order of their ids, file 1 starting with the home page. The file's
   * first id is found on the (state, id) index and its URLs read from there.
   */
  async sitemapFile(em: EntityManager, n: number): Promise<string | null> {
    const per = this.deps.fileUrls;
    if (!Number.isSafeInteger(n) || n < 1 || n > (await this.sitemapFiles(em))) return null;
    const skip = n === 1 ? 0 : (n - 1) * per - 1;
    const take = n === 1 ? per - 1 : per;
    const rows = await rawQuery<{ unique_id: string; modification_time: Date | string }>(
      em,
      `select unique_id, modification_time from publication
        where state = 'published' and unique_id >= coalesce(
          (select unique_id from publication where state = 'published' order by unique_id offset ? limit 1), '')
        order by unique_id limit ?`,
      [skip, take],
    );
    const urls = [
      ...(n === 1 ? [`<url>${xmlEl('loc', `${this.deps.baseUrl}/`)}</url>`] : []),
      ...rows.map(
        (r) =>
          `<url>${xmlEl('loc', landingUrl(this.deps.baseUrl, r.unique_id))}${xmlEl(
            'lastmod',
            datestamp(new Date(r.modification_time)),
          )}</url>`,
      ),
    ];
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`
    );
  }
}
