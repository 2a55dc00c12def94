import type { MenuItemConstructorOptions } from 'electron';
import type { LanState } from './lan.js';

export interface TrayState {
  unseen: number;
  lan: LanState;
}

export interface TrayActions {
  open(): void;
  openNotifications(): void;
  setLanAccess(on: boolean): void;
  showLanAddress(): void;
  quit(): void;
}

export function unseenLabel(count: number): string {
  if (count <= 0) return 'No unseen notifications';
  return count === 1 ? '1 unseen notification' : `${count} unseen notifications`;
}

export function trayTooltip(state: TrayState): string {
  const parts = ['Hearth'];
  if (state.unseen > 0) parts.push(unseenLabel(state.unseen));
  if (state.lan.on && state.lan.url) parts.push(`on the LAN at ${state.lan.url}`);
  return parts.join(' · ');
}

/** The tray menu: open, unseen count, LAN access (and its address), quit. */
export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [
    { label: 'Open Hearth', click: () => actions.open() },
    { label: unseenLabel(state.unseen), enabled: state.unseen > 0, click: () => actions.openNotifications() },
    { type: 'separator' },
    { label: 'LAN access', type: 'checkbox', checked: state.lan.on, click: (item) => actions.setLanAccess(item.checked) },
  ];
  if (state.lan.on && state.lan.url) items.push({ label: `Address for other devices: ${state.lan.url}…`, click: () => actions.showLanAddress() });
  else if (state.lan.problem) items.push({ label: state.lan.problem, enabled: false });
  items.push({ type: 'separator' }, { label: 'Quit Hearth', click: () => actions.quit() });
  return items;
}
