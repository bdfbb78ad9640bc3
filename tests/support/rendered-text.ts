/**
 * What a server component's element tree hands to the browser, as text: props and strings, without the
 * component types themselves (functions, client references, modules such as next/link that refer to
 * themselves), so tests can assert what is and is not rendered.
 */
export function renderedText(tree: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(tree, (key, value: unknown) => {
    if (key === "type" && typeof value !== "string") return undefined;
    if (typeof value === "function" || typeof value === "symbol") return undefined;
    if (value && typeof value === "object") {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  });
}

/** Whether rendering the page called notFound() (Next throws an error whose digest names the 404). */
export async function notFoundOf(render: () => Promise<unknown>): Promise<boolean> {
  try {
    await render();
    return false;
  } catch (error) {
    return String((error as { digest?: string }).digest ?? "").includes("404");
  }
}
