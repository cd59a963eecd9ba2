/**
 * The window's query cache and its defaults, made here so that the tests of live views run
 * on the same defaults as the app (how long an answer counts as fresh decides whether a
 * page shown again reads anew).
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: 1, staleTime: 10_000, refetchOnWindowFocus: false } },
  });
}
