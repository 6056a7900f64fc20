import { type ChildProcess, spawn } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MARIADB_INSTALL_DB, MARIADB_SERVER, PHP_PATH, WORDPRESS_ROOT } from "./system-packages.ts";
import { waitUntil } from "./wait.ts";
import { freePort } from "./web-servers.ts";

/*
 * Debian's WordPress, for real, in a temporary folder: its own MariaDB
 * (a fresh data folder, reached through a socket in that folder, no TCP), a
 * document root that copies WordPress's top-level PHP files and links its
 * wp-admin, wp-includes and themes (so ABSPATH is the temporary folder and
 * our wp-config.php is read instead of Debian's /etc/wordpress lookup),
 * installed from the command line with wp_install(), and served by PHP's
 * built-in server on a free loopback port. Nothing outside the folder is
 * written; stop() ends the two servers this helper started and removes it.
 */

export interface WordPressSite {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** Publishes a post with this content (as an editor pastes it); resolves to its address. */
  publishPost(title: string, content: string): Promise<string>;
  /** What the servers and scripts printed, for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

export interface WordPressOptions {
  /**
   * The one non-standard port WordPress may fetch (oEmbed discovery of the
   * widget's server); WordPress refuses ports other than 80, 443 and 8080 otherwise.
   */
  readonly allowedPort: number;
  /** Plugin folders to copy into wp-content/plugins and activate (each has `<folder name>.php`). */
  readonly plugins?: readonly string[];
  /** Options to set after the install (update_option). */
  readonly options?: Readonly<Record<string, string>>;
}

const AS_ROOT = process.getuid?.() === 0;

export async function startWordPress(options: WordPressOptions): Promise<WordPressSite> {
  const work = mkdtempSync(join(tmpdir(), "ecp-wordpress-"));
  let output = "";
  const note = (text: string) => {
    output += text;
  };
  const children: { readonly child: ChildProcess; readonly group: boolean }[] = [];
  const stop = async () => {
    // The PHP server first, then the database it uses; each by the process this helper started.
    for (const { child, group } of children.reverse()) await stopChild(child, group);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const socket = join(work, "mysql.sock");
    const database = await startMariaDb(work, socket, note);
    children.push({ child: database, group: false });
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const docroot = writeDocroot(work, {
      origin,
      socket,
      allowedPort: options.allowedPort,
      plugins: options.plugins ?? [],
      options: options.options ?? {},
    });
    const installed = await run(PHP_PATH, [join(docroot, "install-site.php")], note);
    // WordPress prints its error pages and still exits 0: the script's own answer says it worked.
    if (!installed.startsWith('{"theme":"twentytwentythree"}')) {
      throw new Error("wp_install() did not finish");
    }
    const server = spawn(PHP_PATH, ["-S", `127.0.0.1:${port}`, "-t", docroot], {
      // A few workers, so the page's stylesheets and scripts load side by side.
      // They are the server's children, which outlive it: it leads a process
      // group of its own, and stop() ends that group.
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: "4" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    children.push({ child: server, group: true });
    collect(server, note);
    await answering(server, origin);
    return {
      origin,
      publishPost: async (title, content) => {
        const printed = await run(
          PHP_PATH,
          [join(docroot, "publish-post.php"), title, content],
          note,
        );
        return (JSON.parse(printed) as { url: string }).url;
      },
      log: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`WordPress did not start: ${(error as Error).message}\n${output}`);
  }
}

/** A new MariaDB data folder and its server, on a socket only (--skip-networking). */
async function startMariaDb(
  work: string,
  socket: string,
  note: (text: string) => void,
): Promise<ChildProcess> {
  const data = join(work, "mysql");
  // Small buffers: a test database of a few hundred rows.
  const sizes = ["--innodb-buffer-pool-size=32M", "--innodb-log-file-size=8M"];
  const user = AS_ROOT ? ["--user=root"] : [];
  await run(
    MARIADB_INSTALL_DB,
    [
      "--no-defaults",
      `--datadir=${data}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
      "--skip-name-resolve",
      ...user,
      ...sizes,
    ],
    note,
  );
  const server = spawn(
    MARIADB_SERVER,
    [
      "--no-defaults",
      `--datadir=${data}`,
      `--socket=${socket}`,
      "--skip-networking",
      "--skip-name-resolve",
      `--pid-file=${join(work, "mysql.pid")}`,
      `--log-error=${join(work, "mysql.err")}`,
      ...user,
      ...sizes,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  collect(server, note);
  try {
    await waitUntil("mariadbd's socket", () => readdirSync(work).includes("mysql.sock"), {
      failed: () =>
        server.exitCode !== null ? `mariadbd stopped (exit ${server.exitCode})` : null,
    });
  } catch (error) {
    await stopChild(server, false);
    throw error;
  }
  return server;
}

interface DocrootSettings {
  readonly origin: string;
  readonly socket: string;
  readonly allowedPort: number;
  readonly plugins: readonly string[];
  readonly options: Readonly<Record<string, string>>;
}

function writeDocroot(work: string, settings: DocrootSettings): string {
  const docroot = join(work, "www");
  mkdirSync(join(docroot, "wp-content", "mu-plugins"), { recursive: true });
  mkdirSync(join(docroot, "wp-content", "plugins"));
  for (const name of readdirSync(WORDPRESS_ROOT)) {
    if (name.endsWith(".php") && name !== "wp-config.php") {
      copyFileSync(join(WORDPRESS_ROOT, name), join(docroot, name));
    }
  }
  for (const name of ["wp-admin", "wp-includes"]) {
    symlinkSync(join(WORDPRESS_ROOT, name), join(docroot, name));
  }
  symlinkSync(join(WORDPRESS_ROOT, "wp-content", "themes"), join(docroot, "wp-content", "themes"));
  const plugins = settings.plugins.map((folder) => {
    const name = basename(folder);
    cpSync(folder, join(docroot, "wp-content", "plugins", name), { recursive: true });
    return `${name}/${name}.php`;
  });
  const php = (value: string) => `'${value.replace(/[\\']/g, "\\$&")}'`;
  writeFileSync(
    join(docroot, "wp-config.php"),
    `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', ${php(`localhost:${settings.socket}`)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
$table_prefix = 'wp_';
define('WP_HOME', ${php(settings.origin)});
define('WP_SITEURL', ${php(settings.origin)});
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_CONTENT_URL', ${php(`${settings.origin}/wp-content`)});
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
// WordPress's own switch: no HTTP request to any host but its own (127.0.0.1).
define('WP_HTTP_BLOCK_EXTERNAL', true);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
  );
  writeFileSync(
    join(docroot, "wp-content", "mu-plugins", "loopback-only.php"),
    `<?php
/*
 * Test only. oEmbed discovery may fetch the widget's server on its loopback
 * port (WordPress refuses private addresses and ports other than 80, 443 and
 * 8080 for a URL found in a post); every request to any other host fails;
 * no mail, no emoji script or DNS prefetch of s.w.org in the page.
 */
const ECP_LOOPBACK = ['127.0.0.1', 'localhost', '::1', '[::1]'];
add_filter('http_request_host_is_external', function ($external, $host) {
  return $external || in_array($host, ECP_LOOPBACK, true);
}, 10, 2);
add_filter('http_allowed_safe_ports', function ($ports) {
  $ports[] = ${settings.allowedPort};
  return $ports;
});
add_filter('pre_http_request', function ($preempt, $args, $url) {
  if (in_array(parse_url($url, PHP_URL_HOST), ECP_LOOPBACK, true)) return $preempt;
  return new WP_Error('http_request_blocked', 'Only loopback requests in this test: ' . $url);
}, 10, 3);
add_filter('pre_wp_mail', '__return_false');
remove_action('wp_head', 'print_emoji_detection_script', 7);
remove_action('wp_head', 'wp_resource_hints', 2);
`,
  );
  writeFileSync(
    join(docroot, "install-site.php"),
    `<?php
// The server starts with no database; WordPress's own connects to it.
$db = new mysqli('localhost', 'root', '', '', 0, ${php(settings.socket)});
$db->query('CREATE DATABASE wordpress CHARACTER SET utf8mb4');
$db->close();
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = '127.0.0.1';
require __DIR__ . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$result = wp_install('Neighbourhood news', 'editor', 'editor@example.org', false, '', wp_generate_password(24), 'en_US');
if (empty($result['user_id'])) { fwrite(STDERR, "wp_install failed\\n"); exit(1); }
require_once ABSPATH . 'wp-admin/includes/plugin.php';
foreach (json_decode(${php(JSON.stringify(plugins))}, true) as $plugin) {
  $activated = activate_plugin($plugin);
  if (is_wp_error($activated)) { fwrite(STDERR, $activated->get_error_message() . "\\n"); exit(1); }
}
foreach (json_decode(${php(JSON.stringify(settings.options))}, true) as $name => $value) update_option($name, $value);
echo json_encode(['theme' => get_option('stylesheet')]), "\\n";
`,
  );
  writeFileSync(
    join(docroot, "publish-post.php"),
    `<?php
$_SERVER['HTTP_HOST'] = '127.0.0.1';
require __DIR__ . '/wp-load.php';
$id = wp_insert_post(['post_title' => $argv[1], 'post_content' => $argv[2], 'post_status' => 'publish', 'post_author' => 1], true);
if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\\n"); exit(1); }
echo json_encode(['url' => get_permalink($id)]), "\\n";
`,
  );
  return docroot;
}

/** Runs a command to its end (stopped after 5 minutes: only a hang takes that long) and gives what it printed on stdout. */
function run(
  command: string,
  args: readonly string[],
  note: (text: string) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => note(chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      note(stdout);
      if (status === 0) resolve(stdout);
      else reject(new Error(`${command} ${args.join(" ")} exited with ${status}`));
    });
  });
}

function collect(child: ChildProcess, note: (text: string) => void): void {
  child.stdout?.setEncoding("utf8").on("data", note);
  child.stderr?.setEncoding("utf8").on("data", note);
}

function answering(server: ChildProcess, origin: string): Promise<void> {
  return waitUntil(
    "php -S answering",
    () =>
      fetch(`${origin}/wp-includes/js/wp-embed.min.js`, { method: "HEAD" }).then(
        (response) => response.ok,
        () => false,
      ),
    {
      failed: () => (server.exitCode !== null ? `php -S stopped (exit ${server.exitCode})` : null),
    },
  );
}

/**
 * SIGTERM, then SIGKILL if it is still running after 10 s; to the process
 * group it leads when it was started detached (the PHP server and its workers).
 */
async function stopChild(child: ChildProcess, group: boolean): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      if (group && child.pid) process.kill(-child.pid, name);
      else child.kill(name);
    } catch {
      // Already gone.
    }
  };
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once("exit", () => resolve()));
  signal("SIGTERM");
  if (await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])) {
    // The workers of a group may still be finishing after their parent left.
    if (group) signal("SIGKILL");
    return;
  }
  signal("SIGKILL");
  await Promise.race([exited, sleep(5_000)]);
}
