/**
 * The packaging against electron-builder 26's own code (node_modules/app-builder-lib): the
 * .deb keeps FpmTarget's default dependencies, and the .desktop entry's name, its
 * StartupWMClass, Electron's desktopName (the windows' class) and the entry an AppImage
 * writes for itself all agree.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { appImageEntry } from '../../src/main/app/appimage-entry';
import { APP_ID, DESKTOP_ENTRY } from '../../src/main/app/identity';

interface BuilderConfig {
  appId: string;
  productName: string;
  protocols: { schemes: string[] }[];
  linux: {
    executableName: string;
    syncDesktopName?: boolean;
    desktop?: { entry?: Record<string, string> };
    mimeTypes?: string[];
    category?: string;
    description?: string;
  };
  deb: { depends: string[]; recommends?: string[] };
}

const root = new URL('../../', import.meta.url);
const config = parse(readFileSync(new URL('electron-builder.yml', root), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  desktopName?: string;
  productName: string;
};
const require = createRequire(import.meta.url);
// app-builder-lib is CommonJS without types for these internals; each use is narrowed below.
const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget') as {
  default: { prototype: { getDefaultDepends(target: string): string[] } };
};
const { LinuxTargetHelper } = require('app-builder-lib/out/targets/LinuxTargetHelper') as {
  LinuxTargetHelper: {
    prototype: {
      computeDesktopEntry(options: object): Promise<string>;
      getDesktopFileName(fallback?: string): string;
    };
  };
};

/** electron-builder's LinuxTargetHelper, as it runs for this configuration. */
function helper() {
  const instance = Object.create(LinuxTargetHelper.prototype) as typeof LinuxTargetHelper.prototype;
  return Object.assign(instance, {
    packager: {
      appInfo: { productName: pkg.productName, sanitizedProductName: pkg.productName },
      executableName: config.linux.executableName,
      info: { metadata: { desktopName: pkg.desktopName } },
      fileAssociations: [],
      config: { protocols: config.protocols },
      platformSpecificBuildOptions: config.linux,
    },
    getDescription: () => config.linux.description ?? '',
  });
}

describe('the .deb', () => {
  it('keeps electron-builder’s default dependencies', () => {
    const defaults = FpmTarget.prototype.getDefaultDepends('deb');
    expect(defaults).toContain('xdg-utils');
    for (const dependency of defaults) expect(config.deb.depends).toContain(dependency);
  });
});

describe('the desktop entry', () => {
  it('is named as Electron names the windows’ class, and says that class', async () => {
    expect(pkg.desktopName).toBe(DESKTOP_ENTRY);
    const h = helper();
    expect(`${h.getDesktopFileName()}.desktop`).toBe(DESKTOP_ENTRY);
    const entry = await h.computeDesktopEntry(config.linux);
    const wmClass = DESKTOP_ENTRY.replace(/\.desktop$/, '');
    expect(entry).toContain(`StartupWMClass=${wmClass}\n`);
    expect(entry).toContain('MimeType=x-scheme-handler/debusine-desktop;');
    // The one an AppImage writes for itself says the same class.
    expect(appImageEntry('/home/u/Debusine.AppImage', 'debusine-desktop')).toContain(
      `StartupWMClass=${wmClass}\n`,
    );
  });

  it('goes with the app id Windows groups notifications by', () => {
    expect(APP_ID).toBe(config.appId);
  });
});

describe('the AppImage’s entry', () => {
  it('quotes the AppImage’s path as the Exec key wants it', () => {
    expect(appImageEntry('/home/u/My Apps/a"b$c.AppImage', 'debusine-desktop')).toContain(
      'Exec="/home/u/My Apps/a\\\\"b\\\\$c.AppImage" %U\n',
    );
    expect(appImageEntry('/home/u/a\nExec=evil', 'debusine-desktop')).toBeNull();
  });
});
