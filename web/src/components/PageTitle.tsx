import { useEffect } from 'preact/hooks';

const SITE = 'Data catalog';

/**
 * Keeps `document.title` in step with the page: the text of the main heading (`#main h1`, a
 * record's name once it has loaded), then the site's name. Every page has its h1, so every page
 * gets its title, the ones drawn later included, without each setting it.
 */
export function PageTitle() {
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    const update = () => {
      const h1 = main.querySelector('h1')?.textContent.trim();
      const title = h1 ? `${h1} · ${SITE}` : SITE;
      if (document.title !== title) document.title = title;
    };
    update();
    const watch = new MutationObserver(update);
    watch.observe(main, { childList: true, subtree: true, characterData: true });
    return () => watch.disconnect();
  }, []);
  return null;
}
