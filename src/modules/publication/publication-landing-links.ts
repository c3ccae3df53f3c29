import type { CitationRecord } from './citation-record';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS } from './citation-export';
import { exportUrl } from './publication-landing-html';

/** The most `item` links the landing page's `Link` header carries (all are in the linkset). */
export const HEADER_MAX_ITEMS = 50;

/** The media type of the RFC 9264 linkset. */
export const LINKSET_TYPE = 'application/linkset+json';

/** One typed link of FAIR Signposting. */
export interface SignLink {
  rel: string;
  href: string;
  type?: string;
  profile?: string;
}

/** A media type as Signposting writes it: the type, with an RO-Crate `profile` apart. */
function typed(mediaType: string): { type: string; profile?: string } {
  const m = /^([^;]+);\s*profile="([^"]+)"$/.exec(mediaType);
  return m ? { type: m[1], profile: m[2] } : { type: mediaType };
}

/**
 * The FAIR Signposting links of a publication's landing page (levels 1 and 2): `cite-as`,
 * `describedby` (every export format), `item` (every file), `license`, `author` (ORCID iDs),
 * `type` (schema.org Dataset and AboutPage), and the `linkset`.
 */
export function signposts(r: CitationRecord): SignLink[] {
  const links: SignLink[] = [{ rel: 'cite-as', href: r.citeAs }];
  for (const f of EXPORT_FORMAT_NAMES)
    links.push({ rel: 'describedby', href: exportUrl(r, f), ...typed(EXPORT_FORMATS[f].mediaType) });
  for (const f of r.files) links.push({ rel: 'item', href: f.url });
  links.push({ rel: 'license', href: r.license.url });
  for (const c of r.creators)
    if (c.orcid) links.push({ rel: 'author', href: `https://orcid.org/${c.orcid}` });
  links.push({ rel: 'type', href: 'https://schema.org/Dataset' });
  links.push({ rel: 'type', href: 'https://schema.org/AboutPage' });
  return links;
}

/** A URL as a `Link` target: characters a header cannot carry percent-encoded. */
const target = (href: string) => href.replace(/[<>\s"]/g, (c) => encodeURIComponent(c));

/**
 * The `Link` header of a landing page: the signposts, with at most {@link HEADER_MAX_ITEMS}
 * `item` links (a larger publication lists its files in the linkset only), and `linkset`.
 */
export function linkHeader(r: CitationRecord, linksetUrl: string): string {
  const all = signposts(r);
  const items = all.filter((l) => l.rel === 'item').length;
  const shown = items > HEADER_MAX_ITEMS ? all.filter((l) => l.rel !== 'item') : all;
  return [...shown, { rel: 'linkset', href: linksetUrl, type: LINKSET_TYPE }]
    .map(
      (l) =>
        `<${target(l.href)}>; rel="${l.rel}"${l.type ? `; type="${l.type}"` : ''}${l.profile ? `; profile="${l.profile}"` : ''}`,
    )
    .join(', ');
}

/** The `Link` header of a tombstone: how it is still cited, and that it is an about page. */
export function tombstoneLinkHeader(r: CitationRecord): string {
  return `<${target(r.citeAs)}>; rel="cite-as", <https://schema.org/AboutPage>; rel="type"`;
}

/**
 * The RFC 9264 linkset (`application/linkset+json`) of a landing page: the landing page's
 * signposts, every file pointing back at it (`collection`), and every metadata document saying
 * what it `describes`.
 */
export function linkset(r: CitationRecord): { linkset: Record<string, unknown>[] } {
  const byRel = new Map<string, Record<string, string>[]>();
  for (const l of signposts(r)) {
    const target: Record<string, string> = { href: l.href };
    if (l.type) target.type = l.type;
    if (l.profile) target.profile = l.profile;
    byRel.set(l.rel, [...(byRel.get(l.rel) ?? []), target]);
  }
  const landing = { anchor: r.url, ...Object.fromEntries(byRel) };
  const back = [{ href: r.url, type: 'text/html' }];
  return {
    linkset: [
      landing,
      ...r.files.map((f) => ({ anchor: f.url, collection: back })),
      ...EXPORT_FORMAT_NAMES.map((f) => ({ anchor: exportUrl(r, f), describes: back })),
    ],
  };
}
