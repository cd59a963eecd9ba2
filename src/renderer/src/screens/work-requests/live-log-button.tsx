import { Radio } from 'lucide-react';
import type { WorkRequestResponse } from '@shared/contract';
import { useOpen } from '@renderer/kit/navigation';
import { hasLiveLog } from './model';

/**
 * "Live log" for a step whose log streams while it runs (nothing otherwise): on the step's
 * page, and small on its row in a workflow's tree, where the label names the step.
 */
export function LiveLogButton(props: {
  wr: WorkRequestResponse;
  small?: boolean;
}): React.JSX.Element | null {
  const { openLiveLog } = useOpen();
  const { wr, small = false } = props;
  if (!hasLiveLog(wr)) return null;
  return (
    <button
      type="button"
      className={small ? 'button small' : 'button'}
      {...(small ? { 'aria-label': `Live log of ${wr.task_name} #${String(wr.id)}` } : {})}
      onClick={() => {
        openLiveLog(wr.id);
      }}
    >
      <Radio size={small ? 13 : 14} aria-hidden="true" />
      Live log
    </button>
  );
}
