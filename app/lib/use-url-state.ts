import { useEffect, useRef } from "react";
import { useNavigation, useSearchParams, type NavigateOptions } from "react-router";

/**
 * The search params a screen's controls show and build on: the ones last asked for while
 * their data loads, else the URL's. Two quick changes (a date, then the other) each keep the
 * first, where the URL alone would still hold the values from before the first.
 */
export function useUrlState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const requested = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    if (navigation.state === "idle") requested.current = null;
  }, [navigation.state]);

  const params =
    navigation.state !== "idle" && requested.current ? requested.current : searchParams;
  const setParams = (next: URLSearchParams, options?: NavigateOptions) => {
    requested.current = next;
    setSearchParams(next, options);
  };
  return [params, setParams] as const;
}
