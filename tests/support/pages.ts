/** Every page of a keyset-paged list in turn: the first, then each next page until there is no cursor. */
export async function everyPage<Page>(
  read: (cursor: string | null) => Promise<Page>,
  nextCursor: (page: Page) => string | null,
): Promise<Page[]> {
  const pages = [await read(null)];
  for (let cursor = nextCursor(pages[0]); cursor; cursor = nextCursor(pages[pages.length - 1]))
    pages.push(await read(cursor));
  return pages;
}
