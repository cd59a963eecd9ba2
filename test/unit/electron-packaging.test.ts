/**
 * The packaging against electron-builder 26's own code (node_modules/app-builder-lib): the
 * configuration is one its schema accepts, the .deb keeps FpmTarget's default dependencies
 * and installs on the Debian and Ubuntu releases the README names, the AppImage is built on
 * the static runtime, and the .desktop entry's name, its StartupWMClass, Electron's
 * desktopName (the windows' class) and the entry an AppImage writes for itself all agree.
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
  toolsets?: { appimage?: string | null };
  asar?: boolean;
  electronFuses?: Record<string, boolean>;
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

const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: object, debugLogger: object): Promise<void>;
};
const { DebugLogger } = require('builder-util') as {
  DebugLogger: new (enabled: boolean) => object;
};
const { appimageChecksums } = require('app-builder-lib/out/toolsets/linux') as {
  appimageChecksums: Record<string, Record<string, string>>;
};
const { default: AppImageTarget } =
  require('app-builder-lib/out/targets/appimage/AppImageTarget') as {
    default: new (
      ignored: null,
      packager: object,
      helper: object,
      outDir: string,
    ) => { desktopEntry: { value: Promise<string> } };
  };
const { generateAppRunScript } = require('app-builder-lib/out/targets/appimage/appImageUtil') as {
  generateAppRunScript(config: Record<string, string>): string;
};

const { PlatformPackager } = require('app-builder-lib/out/platformPackager') as {
  PlatformPackager: {
    prototype: { generateFuseConfig(fuses: Record<string, boolean>): Promise<object> };
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

describe('the configuration', () => {
  it('is one electron-builder’s schema accepts', async () => {
    // A copy: the validator coerces values in place.
    await expect(
      validateConfiguration(structuredClone(config), new DebugLogger(false)),
    ).resolves.toBeUndefined();
  });
});

/** A Depends or Recommends clause's alternatives: `a | b` is either. */
function alternatives(clause: string): string[] {
  return clause.split('|').map((name) => name.trim());
}

/*
 * The names each release has, of the packages the lists above name (apt-cache policy on
 * each): Debian 13 and Ubuntu 24.04 renamed the libraries whose ABI the 64-bit time_t
 * change touched, with a t64 suffix; Debian 12 and Ubuntu 22.04 have the old names. None of
 * the four has libappindicator3-1 except Ubuntu 22.04.
 */
const unchanged = [
  'libnotify4',
  'libnss3',
  'libnspr4',
  'libxss1',
  'libxtst6',
  'xdg-utils',
  'libuuid1',
  'libsecret-1-0',
  'libgbm1',
  'libdrm2',
  'libcairo2',
  'libpango-1.0-0',
  'libdbus-1-3',
  'libexpat1',
  'libudev1',
  'libx11-6',
  'libxcb1',
  'libxcomposite1',
  'libxdamage1',
  'libxext6',
  'libxfixes3',
  'libxkbcommon0',
  'libxrandr2',
  'gnome-keyring',
  'kwalletmanager',
  'devscripts',
  'gnupg',
];
const renamed = [
  'libgtk-3-0',
  'libatspi2.0-0',
  'libasound2',
  'libatk1.0-0',
  'libatk-bridge2.0-0',
  'libcups2',
  'libglib2.0-0',
];
const before64BitTime = new Set([...unchanged, ...renamed]);
const after64BitTime = new Set([...unchanged, ...renamed.map((name) => `${name}t64`)]);
const releases: Record<string, ReadonlySet<string>> = {
  'Debian 12': before64BitTime,
  'Debian 13': after64BitTime,
  'Ubuntu 22.04': new Set([...before64BitTime, 'libappindicator3-1']),
  'Ubuntu 24.04': after64BitTime,
};

describe('the .deb', () => {
  it('keeps electron-builder’s default dependencies, each under its old or new name', () => {
    const defaults = FpmTarget.prototype.getDefaultDepends('deb');
    expect(defaults).toContain('xdg-utils');
    const offered = config.deb.depends.flatMap(alternatives);
    for (const dependency of defaults) expect(offered).toContain(dependency);
  });

  it('depends on the libraries Electron links that electron-builder leaves out', () => {
    const offered = config.deb.depends.flatMap(alternatives);
    for (const library of ['libgbm1', 'libasound2', 'libasound2t64', 'libdrm2', 'libxkbcommon0'])
      expect(offered).toContain(library);
  });

  it.each(Object.entries(releases))('installs on %s: each clause has a package there', (_, has) => {
    for (const clause of [...config.deb.depends, ...(config.deb.recommends ?? [])]) {
      expect(
        alternatives(clause).filter((name) => has.has(name)),
        clause,
      ).not.toEqual([]);
    }
  });

  it('names a renamed library by its new name first, which apt then prefers', () => {
    for (const clause of config.deb.depends) {
      const [first, ...rest] = alternatives(clause);
      if (rest.length > 0) expect(rest).toEqual([first?.replace(/t64$/, '')]);
    }
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
    expect(appImageEntry('/home/u/Debusine.AppImage', 'debusine-desktop', null)).toContain(
      `StartupWMClass=${wmClass}\n`,
    );
  });

  it('goes with the app id Windows groups notifications by', () => {
    expect(APP_ID).toBe(config.appId);
  });
});

describe('the AppImage’s entry', () => {
  it('quotes the AppImage’s path as the Exec key wants it', () => {
    expect(appImageEntry('/home/u/My Apps/a"b$c.AppImage', 'debusine-desktop', null)).toContain(
      'Exec="/home/u/My Apps/a\\\\"b\\\\$c.AppImage" %U\n',
    );
    expect(appImageEntry('/home/u/a\nExec=evil', 'debusine-desktop', null)).toBeNull();
  });
});

describe('the AppImage', () => {
  it('is built on the static runtime, which needs no libfuse2', () => {
    // AppImageTarget.build takes null and 0.0.0 for buildLegacyFuse2AppImage, any other
    // version for buildStaticRuntimeAppImage; the version must be one it can check.
    const version = config.toolsets?.appimage;
    expect(version).toBeTypeOf('string');
    expect(version).not.toBe('0.0.0');
    expect(Object.keys(appimageChecksums[version ?? ''] ?? {})).not.toEqual([]);
  });

  it('is started through AppRun without --no-sandbox written into its entry', async () => {
    // AppImageTarget writes --no-sandbox into the entry's Exec for the legacy runtime only:
    // this is its own computation, for this configuration.
    const h = helper();
    const packager = {
      ...h.packager,
      appInfo: { ...h.packager.appInfo, buildVersion: '0.1.0' },
      config: { ...h.packager.config, toolsets: config.toolsets },
    };
    const target = new AppImageTarget(null, packager, Object.assign(h, { packager }), '/tmp');
    const entry = await target.desktopEntry.value;
    expect(entry).toContain('Exec=AppRun %U\n');
    expect(entry).not.toContain('--no-sandbox');
  });

  it('has an AppRun that adds --no-sandbox where user namespaces are refused', () => {
    // What src/main/app/sandbox-check.ts answers: electron-builder's AppRun for the static
    // runtime probes with `unshare -Ur true` and, when that fails (Ubuntu 24.04's AppArmor
    // refuses unprivileged user namespaces), starts the app with --no-sandbox.
    const appRun = generateAppRunScript({
      DesktopFileName: 'debusine-desktop.desktop',
      ExecutableName: 'debusine-desktop',
      ProductName: 'Debusine Desktop',
      ProductFilename: 'Debusine Desktop',
      ResourceName: 'appimagekit-debusine-desktop',
    });
    expect(appRun).toContain('! unshare -Ur true');
    expect(appRun).toContain('NO_SANDBOX=(--no-sandbox)');
    expect(appRun).toContain('exec "$BIN" "${NO_SANDBOX[@]}"');
  });
});

describe('the fuses', () => {
  it('are the ones electron-builder flips: no running as Node, no inspector, app.asar only', async () => {
    const { FuseV1Options, FuseVersion } = await import('@electron/fuses');
    const fuses = config.electronFuses;
    expect(fuses).toBeDefined();
    // electron-builder's own translation of the configuration for @electron/fuses.
    const flipped = await PlatformPackager.prototype.generateFuseConfig.call({}, fuses ?? {});
    expect(flipped).toEqual({
      version: FuseVersion.V1,
      resetAdHocDarwinSignature: undefined,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
    });
    // The app's code is in app.asar for OnlyLoadAppFromAsar to find it.
    expect(config.asar).toBe(true);
  });
});
