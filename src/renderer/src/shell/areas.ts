import {
  Archive,
  Boxes,
  FolderTree,
  LayoutTemplate,
  Library,
  ListChecks,
  Settings,
  Upload,
  type LucideIcon,
} from 'lucide-react';
import type { Area } from '@renderer/state/ui-store';

export interface AreaInfo {
  id: Area;
  label: string;
  icon: LucideIcon;
  /** One line for the command palette. */
  description: string;
}

export const AREA_INFO: readonly AreaInfo[] = [
  { id: 'upload', label: 'Upload', icon: Upload, description: 'Drop packages and upload them' },
  {
    id: 'work-requests',
    label: 'Work requests',
    icon: ListChecks,
    description: 'Watch work requests and workflows',
  },
  {
    id: 'artifacts',
    label: 'Artifacts',
    icon: Boxes,
    description: 'Look up and download artifacts',
  },
  {
    id: 'workspaces',
    label: 'Workspaces',
    icon: FolderTree,
    description: 'Workspace inheritance chains',
  },
  {
    id: 'collections',
    label: 'Collections',
    icon: Library,
    description: 'Collections and task configuration',
  },
  {
    id: 'templates',
    label: 'Templates',
    icon: LayoutTemplate,
    description: 'Workflow templates',
  },
  {
    id: 'repositories',
    label: 'Repositories',
    icon: Archive,
    description: 'Your own APT repositories: make, publish, install with apt',
  },
  {
    id: 'settings',
    label: 'Settings',
    icon: Settings,
    description: 'Servers, sign-in, notifications',
  },
];

export function areaInfo(area: Area): AreaInfo {
  const info = AREA_INFO.find((a) => a.id === area);
  if (!info) throw new Error(`unknown area ${area}`);
  return info;
}
