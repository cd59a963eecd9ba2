/**
 * The state an editor of a server object keeps around its draft: which of its fields hold
 * text that does not parse, and the "review, then save" flow (a diff first; a refused save
 * keeps the edit and shows the server's problem).
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf, type Problem } from '@renderer/kit/errors/problem';

/** The fields whose text does not parse: saving waits until there are none. */
export function useValidity(): {
  invalid: ReadonlySet<string>;
  setValidity: (key: string, valid: boolean) => void;
} {
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const setValidity = (key: string, valid: boolean): void => {
    setInvalid((s) => {
      if (valid === !s.has(key)) return s;
      const next = new Set(s);
      if (valid) next.delete(key);
      else next.add(key);
      return next;
    });
  };
  return { invalid, setValidity };
}

/**
 * Saving a draft after its review: a success closes the review, forgets the last problem,
 * refreshes `invalidates` and hands the saved object to `onDone`; a refusal closes the review
 * and keeps the server's problem.
 */
export function useReviewedSave<D, S>(options: {
  mutationFn: (draft: D) => Promise<S>;
  invalidates: QueryKey;
  onDone: (saved: S) => void;
}) {
  const queryClient = useQueryClient();
  const [reviewing, setReviewing] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const save = useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (saved) => {
      setReviewing(false);
      setProblem(null);
      await queryClient.invalidateQueries({ queryKey: options.invalidates });
      options.onDone(saved);
    },
    onError: (error) => {
      setReviewing(false);
      setProblem(problemOf(error));
    },
  });
  return { save, reviewing, setReviewing, problem };
}

/**
 * Deleting after a confirmation: either answer closes the confirmation; a success calls
 * `onDeleted`, then refreshes `invalidates`. The refusal stays in `remove.error`.
 */
export function useConfirmedDelete<V = void>(options: {
  mutationFn: (variables: V) => Promise<unknown>;
  invalidates: QueryKey;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async () => {
      setConfirming(false);
      options.onDeleted();
      await queryClient.invalidateQueries({ queryKey: options.invalidates });
    },
    onError: () => {
      setConfirming(false);
    },
  });
  return { remove, confirming, setConfirming };
}
