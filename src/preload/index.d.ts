export interface DebusineBridge {
  readonly transport: 'electron' | 'web';
}

declare global {
  interface Window {
    debusine?: DebusineBridge;
  }
}
