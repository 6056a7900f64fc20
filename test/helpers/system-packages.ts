import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * Tests that need a system package (Chromium, Python's icalendar/feedparser)
 * skip with a printed reason on a bare machine, and fail in CI, where
 * `.ci/run` installs them: a missing package there is a broken CI, not a skip.
 */
export function systemDependency(name: string, isAvailable: () => boolean): boolean {
  if (isAvailable()) return true;
  const reason = `${name} is not installed (see .ci/run for the Debian packages)`;
  if (process.env.CI === "true" || process.env.REQUIRE_SYSTEM_DEPS === "1") {
    throw new Error(`Required system dependency missing in CI: ${reason}`);
  }
  console.warn(`[skip] ${reason}`);
  return false;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Firefox ESR (firefox-esr), driven over WebDriver BiDi (helpers/firefox-engine.ts). */
export const FIREFOX_PATH = "/usr/bin/firefox-esr";

export const hasFirefox = (): boolean =>
  systemDependency(`Firefox ESR (${FIREFOX_PATH}, Debian's firefox-esr)`, () =>
    existsSync(FIREFOX_PATH),
  );

/**
 * Debian's WebKitGTK with its WebDriver server (webkit2gtk-driver: WebKitWebDriver
 * and MiniBrowser), the X server it draws on (xvfb) and libfaketime (faketime),
 * which sets its clock (helpers/webkit-engine.ts).
 */
export const WEBKIT_DRIVER_PATH = "/usr/bin/WebKitWebDriver";
export const MINIBROWSER_PATH = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
export const XVFB_PATH = "/usr/bin/Xvfb";
export const LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

export const hasWebKit = (): boolean =>
  systemDependency(
    `WebKitGTK's WebDriver with Xvfb and libfaketime (${WEBKIT_DRIVER_PATH}, ${MINIBROWSER_PATH}, ${XVFB_PATH}, ${LIBFAKETIME}; Debian's webkit2gtk-driver, xvfb, faketime)`,
    () => [WEBKIT_DRIVER_PATH, MINIBROWSER_PATH, XVFB_PATH, LIBFAKETIME].every(existsSync),
  );

/** Debian's Python, which sees python3-icalendar and python3-feedparser. */
export const SYSTEM_PYTHON = "/usr/bin/python3";

export const hasChromium = (): boolean =>
  systemDependency("Chromium (/usr/bin/chromium)", () => existsSync(CHROMIUM_PATH));

export const hasPythonModule = (module: string): boolean =>
  systemDependency(`Python module ${module} (${SYSTEM_PYTHON})`, () => {
    if (!existsSync(SYSTEM_PYTHON)) return false;
    return spawnSync(SYSTEM_PYTHON, ["-c", `import ${module}`]).status === 0;
  });

/** Debian's Java (default-jre-headless), which runs the Nu Html Checker (vnu.jar, Java 17 or newer). */
export const JAVA_PATH = "/usr/bin/java";

export const hasJava = (): boolean =>
  systemDependency(`Java 17 or newer (${JAVA_PATH}, Debian's default-jre-headless)`, () => {
    if (!existsSync(JAVA_PATH)) return false;
    const version = spawnSync(JAVA_PATH, ["-version"], { encoding: "utf8" }).stderr ?? "";
    return Number(/version "(\d+)/.exec(version)?.[1] ?? 0) >= 17;
  });

/** Debian's libical (libical3): the library icalvalidate runs, read through Python's ctypes. */
export const LIBICAL = "libical.so.3";

export const hasLibical = (): boolean =>
  systemDependency(`libical (${LIBICAL}, Debian's libical3)`, () => {
    if (!existsSync(SYSTEM_PYTHON)) return false;
    const load = `import ctypes; ctypes.CDLL("${LIBICAL}")`;
    return spawnSync(SYSTEM_PYTHON, ["-c", load]).status === 0;
  });

/** Debian's nginx and Apache, for the web server configurations (test/hosts/web-servers.test.ts). */
export const NGINX_PATH = "/usr/sbin/nginx";
export const APACHE_PATH = "/usr/sbin/apache2";

export const hasNginx = (): boolean =>
  systemDependency(`nginx (${NGINX_PATH})`, () => existsSync(NGINX_PATH));

export const hasApache = (): boolean =>
  systemDependency(
    `Apache (${APACHE_PATH})`,
    () => existsSync(APACHE_PATH) && existsSync("/usr/lib/apache2/modules/mod_headers.so"),
  );

/**
 * Debian's WordPress with what it runs on: PHP's command line (its built-in
 * server) with the MySQL driver, MariaDB, and the default theme
 * (test/integration/wordpress.browser.test.ts).
 */
export const WORDPRESS_ROOT = "/usr/share/wordpress";
export const PHP_PATH = "/usr/bin/php";
export const MARIADB_SERVER = "/usr/sbin/mariadbd";
export const MARIADB_INSTALL_DB = "/usr/bin/mariadb-install-db";

export const hasWordPress = (): boolean =>
  systemDependency(
    "WordPress with PHP, php-mysql and MariaDB (wordpress, php-cli, php-mysql, mariadb-server)",
    () => {
      const files = [
        `${WORDPRESS_ROOT}/wp-settings.php`,
        `${WORDPRESS_ROOT}/wp-content/themes/twentytwentythree/theme.json`,
        PHP_PATH,
        MARIADB_SERVER,
        MARIADB_INSTALL_DB,
      ];
      if (!files.every((file) => existsSync(file))) return false;
      return spawnSync(PHP_PATH, ["-r", "exit(extension_loaded('mysqli') ? 0 : 1);"]).status === 0;
    },
  );
