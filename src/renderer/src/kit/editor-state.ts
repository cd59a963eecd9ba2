/**
 * The state an editor of a server object keeps around its draft: which of its fields hold
 * text that does not parse, and the "review, then save" flow (a diff first; a refused save
 * keeps the edit and shows the server's problem).
 */
import { useState } from 'react';
import type { MutationDef } from '@renderer/queries/define';
import { useMutationOf } from '@renderer/queries/hooks';
import { problemOf, type Problem } from './errors/problem';

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
 * waits for what the save made stale to be read again, and hands the saved object to
 * `onDone`; a refusal closes the review and keeps the server's problem. `variables` says
 * what the mutation is sent for a draft.
 */
export function useReviewedSave<D, V, S>(options: {
  mutation: MutationDef<V, S>;
  variables: (draft: D) => V;
  onDone: (saved: S) => void;
}) {
  const [reviewing, setReviewing] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const mutation = useMutationOf(options.mutation, {
    onSuccess: async (saved, _variables, invalidated) => {
      setReviewing(false);
      setProblem(null);
      await invalidated;
      options.onDone(saved);
    },
    onError: (error) => {
      setReviewing(false);
      setProblem(problemOf(error));
    },
  });
  const save = {
    isPending: mutation.isPending,
    mutate: (draft: D): void => {
      mutation.mutate(options.variables(draft));
    },
  };
  return { save, reviewing, setReviewing, problem };
}

/**
 * Deleting after a confirmation: either answer closes the confirmation; a success calls
 * `onDeleted` and waits for what the delete made stale to be read again. The refusal stays
 * in `remove.error`.
 */
export function useConfirmedDelete<V, R>(options: {
  mutation: MutationDef<V, R>;
  onDeleted: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const remove = useMutationOf(options.mutation, {
    onSuccess: (_result, _variables, invalidated) => {
      setConfirming(false);
      options.onDeleted();
      return invalidated;
    },
    onError: () => {
      setConfirming(false);
    },
  });
  return { remove, confirming, setConfirming };
}
