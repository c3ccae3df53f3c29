import type { CitationRecord, CitedCreator } from './citation-record';
import { schemaOrg } from './citation-formats';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, type ExportFormatName } from './citation-export';

/** The most files a landing page lists (the linkset and the exports list every one). */
export const LANDING_MAX_FILES = 1000;

/** The landing page's own files (a style sheet and the copy button's script), under this path. */
export const LANDING_ASSETS = '/landing';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and quoted attribute values. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * JSON for a `<script type="application/ld+json">` element: every `<` written `\u003c` (the same
 * JSON once parsed), so no `</script>` nor `<!--` in the data can end or change the element.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/</g, '\\u003c');
}

/** The creator as a citation writes it: "Family, G." for a person, the name as given otherwise. */
function citedName(c: CitedCreator): string {
  if (!c.familyName) return c.name;
  const initials = (c.givenName ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((g) => `${g[0]}.`)
    .join(' ');
  return initials ? `${c.familyName}, ${initials}` : c.familyName;
}

/**
 * The citation as plain text (DataCite's recommended form): Creators (Year). Title (Version
 * v). Publisher. Identifier.
 */
export function citationText(r: CitationRecord): string {
  const names = r.creators.map(citedName);
  const creators =
    names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join('; ')} & ${names[names.length - 1]}`;
  const version = r.version ? ` (Version ${r.version})` : '';
  return `${creators} (${r.year}). ${r.title}${version}. ${r.publisher}. ${r.citeAs}`;
}

/** A size for people: bytes below a KiB, else one decimal of the unit (the exact bytes beside). */
export function humanSize(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  if (bytes < 1024) return `${bytes} B`;
  let v = bytes;
  let unit = -1;
  while (v >= 1024 && unit < units.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${v.toFixed(1)} ${units[unit]}`;
}

/** The explicit URL of one export format of a publication. */
export function exportUrl(r: CitationRecord, format: ExportFormatName): string {
  return `${r.url}/export/${format}`;
}

const FORMAT_LABELS: Record<ExportFormatName, string> = {
  'datacite-json': 'DataCite JSON',
  'datacite-xml': 'DataCite XML',
  'schema-org': 'schema.org JSON-LD',
  'ro-crate': 'RO-Crate metadata',
  bibtex: 'BibTeX',
  ris: 'RIS',
  'csl-json': 'CSL-JSON',
};

function page(opts: {
  title: string;
  description: string;
  canonical?: string;
  head?: string;
  body: string;
  noindex?: boolean;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(opts.title)}</title>
<meta name="description" content="${esc(opts.description)}">
${opts.canonical ? `<link rel="canonical" href="${esc(opts.canonical)}">\n` : ''}${opts.noindex ? '<meta name="robots" content="noindex">\n' : ''}<link rel="stylesheet" href="${LANDING_ASSETS}/landing.css">
${opts.head ?? ''}</head>
<body>
<main>
${opts.body}
</main>
<footer><p><a href="/">Find datasets in the catalog</a></p></footer>
</body>
</html>
`;
}

/** The first sentence-ish of a description, for the description meta (at most 300 characters). */
function summary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 300 ? flat : `${flat.slice(0, 297)}…`;
}

function citationBlock(r: CitationRecord): string {
  return `<section aria-labelledby="cite">
<h2 id="cite">Cite as</h2>
<p class="citation" id="citation">${esc(citationText(r))}</p>
<p><button type="button" id="copy-citation" hidden>Copy the citation</button> <span id="copy-status" role="status"></span></p>
</section>`;
}

function creatorsBlock(r: CitationRecord): string {
  const items = r.creators.map((c) => {
    const orcid = c.orcid
      ? // the link's name is its visible text (axe: label-content-name-mismatch); "ORCID iD" says what it is
        ` <span class="orcid">ORCID iD <a href="https://orcid.org/${esc(c.orcid)}">https://orcid.org/${esc(c.orcid)}</a></span>`
      : '';
    const affiliations = c.affiliations.length
      ? `<ul class="affiliations">${c.affiliations
          .map((a) =>
            a.rorId ? `<li><a href="${esc(a.rorId)}">${esc(a.name)}</a></li>` : `<li>${esc(a.name)}</li>`,
          )
          .join('')}</ul>`
      : '';
    return `<li><span class="creator">${esc(c.name)}</span>${orcid}${affiliations}</li>`;
  });
  return `<section aria-labelledby="creators">
<h2 id="creators">Creators</h2>
<ul class="creators">${items.join('\n')}</ul>
</section>`;
}

function detailsBlock(r: CitationRecord): string {
  const rows: [string, string][] = [
    ['Identifier', `<a href="${esc(r.citeAs)}">${esc(r.citeAs)}</a>`],
    ['Publisher', esc(r.publisher)],
    [
      'Published',
      r.datePublished ? `<time datetime="${r.datePublished}">${r.datePublished}</time>` : 'not yet',
    ],
    [
      'License',
      `<a href="${esc(r.license.url)}" rel="license">${esc(r.license.name)}</a> (${esc(r.license.id)})`,
    ],
  ];
  if (r.version) rows.push(['Version', esc(r.version)]);
  if (r.keywords.length)
    rows.push([
      'Keywords',
      `<ul class="keywords">${r.keywords.map((k) => `<li>${esc(k)}</li>`).join('')}</ul>`,
    ]);
  return `<section aria-labelledby="details">
<h2 id="details">Details</h2>
<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('\n')}</dl>
</section>`;
}

function fundingBlock(r: CitationRecord): string {
  if (!r.funding.length) return '';
  const items = r.funding.map((f) => {
    const funder = f.funderIdentifier
      ? /^https?:\/\//.test(f.funderIdentifier)
        ? `<a href="${esc(f.funderIdentifier)}">${esc(f.funderName)}</a>`
        : `${esc(f.funderName)} (${esc(f.funderIdentifier)})`
      : esc(f.funderName);
    const award = [f.awardNumber, f.awardTitle].filter(Boolean).map((s) => esc(s as string));
    return `<li>${funder}${award.length ? `: ${award.join(', ')}` : ''}</li>`;
  });
  return `<section aria-labelledby="funding">
<h2 id="funding">Funding</h2>
<ul>${items.join('\n')}</ul>
</section>`;
}

function filesBlock(r: CitationRecord): string {
  const shown = r.files.slice(0, LANDING_MAX_FILES);
  const more =
    r.files.length > shown.length
      ? `<p>The first ${shown.length} of ${r.files.length} files: every file is listed in the <a href="${esc(r.url)}/linkset">linkset</a> and the <a href="${esc(exportUrl(r, 'ro-crate'))}">RO-Crate metadata</a>.</p>`
      : '';
  const rows = shown.map(
    (f) =>
      `<tr><th scope="row"><a href="${esc(f.url)}">${esc(f.name)}</a></th><td><data value="${f.size}">${humanSize(f.size)}</data></td><td><code>${esc(f.sha256)}</code></td></tr>`,
  );
  return `<section aria-labelledby="files">
<h2 id="files">Files</h2>
<p>${r.files.length} ${r.files.length === 1 ? 'file' : 'files'}, ${humanSize(r.totalBytes)} (${r.totalBytes} bytes) in all. Downloads need an account that may read the datasets.</p>
${more}<div class="table-wrap"><table>
<caption class="visually-hidden">Files with their sizes and SHA-256 checksums</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col">SHA-256</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>
</section>`;
}

function datasetsBlock(r: CitationRecord): string {
  const items = r.datasets.map(
    (d) => `<li><a href="/datasets/${esc(d.id)}">${esc(d.name ?? d.id)}</a> <code>${esc(d.id)}</code></li>`,
  );
  return `<section aria-labelledby="datasets">
<h2 id="datasets">Datasets</h2>
<ul>${items.join('\n')}</ul>
</section>`;
}

export interface LandingVersions {
  previous: { url: string; version: string | null } | null;
  next: { url: string; version: string | null } | null;
}

function versionsBlock(v: LandingVersions): string {
  if (!v.previous && !v.next) return '';
  const label = (x: { version: string | null }) => (x.version ? ` (version ${esc(x.version)})` : '');
  const items = [
    v.previous
      ? `<li>Previous version: <a href="${esc(v.previous.url)}" rel="prev">${esc(v.previous.url)}</a>${label(v.previous)}</li>`
      : '',
    v.next
      ? `<li>Next version: <a href="${esc(v.next.url)}" rel="next">${esc(v.next.url)}</a>${label(v.next)}</li>`
      : '',
  ].filter(Boolean);
  return `<section aria-labelledby="versions">
<h2 id="versions">Versions</h2>
<ul>${items.join('\n')}</ul>
</section>`;
}

function exportsBlock(r: CitationRecord): string {
  const items = EXPORT_FORMAT_NAMES.map(
    (f) =>
      `<li><a href="${esc(exportUrl(r, f))}" type="${esc(EXPORT_FORMATS[f].mediaType)}">${FORMAT_LABELS[f]}</a></li>`,
  );
  return `<section aria-labelledby="exports">
<h2 id="exports">Metadata and citation formats</h2>
<ul class="exports">${items.join('\n')}</ul>
</section>`;
}

/** The landing page of a published publication: everything readable without JavaScript. */
export function landingHtml(r: CitationRecord, versions: LandingVersions): string {
  const description = r.description
    .split(/\n\s*\n/)
    .map((p) => `<p>${esc(p.trim())}</p>`)
    .join('\n');
  const head = `<script type="application/ld+json">\n${scriptJson(schemaOrg(r))}\n</script>
<script src="${LANDING_ASSETS}/copy-citation.js" defer></script>
`;
  const body = `<article>
<header>
<p class="kind">Dataset publication</p>
<h1>${esc(r.title)}</h1>
</header>
${citationBlock(r)}
${creatorsBlock(r)}
<section aria-labelledby="description">
<h2 id="description">Description</h2>
${description}
</section>
${detailsBlock(r)}
${fundingBlock(r)}
${versionsBlock(versions)}
${datasetsBlock(r)}
${filesBlock(r)}
${exportsBlock(r)}
</article>`;
  return page({ title: r.title, description: summary(r.description), canonical: r.url, head, body });
}

/** The tombstone of a withdrawn publication (410): the citation and the reason, no files. */
export function tombstoneHtml(r: CitationRecord, withdrawnAt: Date | null): string {
  const when = withdrawnAt ? withdrawnAt.toISOString().slice(0, 10) : null;
  const body = `<article>
<header>
<p class="kind">Withdrawn publication</p>
<h1>${esc(r.title)}</h1>
</header>
<section aria-labelledby="withdrawn">
<h2 id="withdrawn">Withdrawn</h2>
<p>This publication was withdrawn${when ? ` on <time datetime="${when}">${when}</time>` : ''}. Its files are no longer offered.</p>
<p>Reason: <span class="reason">${esc(r.withdrawalReason ?? '')}</span></p>
</section>
${citationBlock(r)}
</article>`;
  return page({
    title: `Withdrawn: ${r.title}`,
    description: `Withdrawn: ${summary(r.title)}`,
    canonical: r.url,
    head: `<script src="${LANDING_ASSETS}/copy-citation.js" defer></script>\n`,
    body,
    noindex: true,
  });
}

/** What an unknown, unreadable (a draft) or malformed id gets: one page for all. */
export function notFoundHtml(id: string): string {
  return page({
    title: 'Publication not found',
    description: 'No such publication',
    noindex: true,
    body: `<h1>Publication not found</h1>\n<p>There is no publication <code>${esc(id)}</code>.</p>`,
  });
}

/** A refused request (an unknown query parameter): its status and message. */
export function problemHtml(title: string, message: string): string {
  return page({
    title,
    description: title,
    noindex: true,
    body: `<h1>${esc(title)}</h1>\n<p>${esc(message)}</p>`,
  });
}

/** The copy button: shown only when scripts run; the citation stays plain text without it. */
export const COPY_SCRIPT = `'use strict';
(function () {
  var button = document.getElementById('copy-citation');
  var text = document.getElementById('citation');
  var status = document.getElementById('copy-status');
  if (!button || !text || !status) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    var citation = text.textContent.trim();
    var done = function () { status.textContent = 'Citation copied.'; };
    var fallback = function () {
      var range = document.createRange();
      range.selectNodeContents(text);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      status.textContent = 'The citation is selected: copy it with your keyboard.';
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(citation).then(done, fallback);
    else fallback();
  });
})();
`;

/** The landing page's style: small, readable at 390 px, no web-app bundle. */
export const LANDING_CSS = `:root { color-scheme: light; --fg: #1b1f24; --muted: #4d5560; --link: #0b5cad; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
main, footer { max-width: 60rem; margin: 0 auto; padding: 1rem; }
a { color: var(--link); overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.25rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
.kind { color: var(--muted); margin: 0; text-transform: uppercase; letter-spacing: 0.05em; font-size: 0.8rem; }
.citation { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 0.75rem; overflow-wrap: anywhere; }
button { font: inherit; padding: 0.4rem 0.9rem; border: 1px solid var(--link); background: var(--link); color: #fff; border-radius: 4px; cursor: pointer; }
button:focus-visible, a:focus-visible { outline: 3px solid #e3a008; outline-offset: 2px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
ul.keywords { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.4rem; }
ul.keywords li { border: 1px solid var(--line); border-radius: 1rem; padding: 0 0.6rem; }
ul.affiliations { margin: 0; color: var(--muted); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
tbody th { font-weight: normal; overflow-wrap: anywhere; }
code { font-size: 0.85em; overflow-wrap: anywhere; word-break: break-all; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 40rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: 0.5rem; } }
`;
