import { LiveLogScreen, LogScreen } from '@renderer/screens/logs';
import { useDetail } from '@renderer/kit/navigation';
import type { Area } from '@renderer/state/ui-store';
import { SCREENS } from './screens';

/**
 * What the area shows: its screen, or the log viewer while a log is open in it (the
 * viewer is opened from several areas, so it belongs to none of them).
 */
export function AreaContent(props: { area: Area }): React.JSX.Element {
  const detail = useDetail();
  if (detail?.kind === 'log') return <LogScreen target={detail} />;
  if (detail?.kind === 'live-log') return <LiveLogScreen target={detail} />;
  const Screen = SCREENS[props.area];
  return <Screen />;
}
