import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * A route's `shouldRevalidate` that skips a navigation changing only `param` in the URL (a
 * tab, a dialog's flag): what the page shows is already loaded. Anything else, and every
 * revalidation after a change, reloads as usual.
 */
export function revalidateUnlessOnly(param: string) {
  return ({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) => {
    const without = (url: URL) => {
      const params = new URLSearchParams(url.search);
      params.delete(param);
      return `${url.pathname}?${params}`;
    };
    const onlyParam =
      currentUrl.search !== nextUrl.search && without(currentUrl) === without(nextUrl);
    return onlyParam ? false : defaultShouldRevalidate;
  };
}
