import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { APACHE_PATH, NGINX_PATH } from "./system-packages.ts";
import { waitUntil } from "./wait.ts";

/*
 * Debian's nginx and Apache run in the foreground on a free loopback port,
 * each with a configuration of its own in a temporary folder, serving a copy
 * of a built site in a folder of the document root (as rsync leaves it on a
 * server). Stopped by the process they started, never by name.
 */

export interface WebServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  readonly log: () => string;
  stop(): Promise<void>;
}

export interface ServedCopy {
  /** The document root; the site is in its `<folder>/`. */
  readonly root: string;
  readonly work: string;
  remove(): void;
}

/**
 * A copy of `siteDir` in `<root>/<folder>/` that the servers' worker user can
 * read (a build's temporary folders are private to their owner).
 */
export function servedCopy(siteDir: string, folder: string): ServedCopy {
  const work = mkdtempSync(join(tmpdir(), "ecp-www-"));
  chmodSync(work, 0o755);
  const root = join(work, "www");
  mkdirSync(root, { mode: 0o755 });
  cpSync(siteDir, join(root, folder), { recursive: true });
  return { root, work, remove: () => rmSync(work, { recursive: true, force: true }) };
}

/** Running as root, both servers hand requests to an unprivileged user (Apache refuses root). */
const AS_ROOT = process.getuid?.() === 0;

export async function startNginx(
  work: string,
  siteConf: (listen: string) => string,
): Promise<WebServer> {
  const dir = join(work, "nginx");
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  writeFileSync(join(dir, "site.conf"), siteConf(`127.0.0.1:${port}`));
  writeFileSync(
    join(dir, "nginx.conf"),
    `${AS_ROOT ? "user www-data;\n" : ""}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
  );
  const child = spawn(
    NGINX_PATH,
    ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return running(child, port);
}

export async function startApache(
  work: string,
  siteConf: string,
  documentRoot: string,
): Promise<WebServer> {
  const dir = join(work, "apache");
  mkdirSync(join(dir, "logs"), { recursive: true });
  const port = await freePort();
  const modules = ["mpm_event", "authz_core", "mime", "dir", "headers"]
    .map((name) => `LoadModule ${name}_module /usr/lib/apache2/modules/mod_${name}.so`)
    .join("\n");
  writeFileSync(join(dir, "site.conf"), siteConf);
  writeFileSync(
    join(dir, "httpd.conf"),
    `ServerRoot ${dir}
Listen 127.0.0.1:${port}
PidFile ${dir}/httpd.pid
ErrorLog ${dir}/logs/error.log
${modules}
${AS_ROOT ? "User www-data\nGroup www-data\n" : ""}ServerName 127.0.0.1
TypesConfig /etc/mime.types
DocumentRoot ${documentRoot}
<Directory ${documentRoot}>
  Require all granted
</Directory>
Include ${dir}/site.conf
`,
  );
  const child = spawn(APACHE_PATH, ["-f", join(dir, "httpd.conf"), "-DFOREGROUND"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return running(child, port);
}

async function running(child: ChildProcess, port: number): Promise<WebServer> {
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.race([exited, sleep(5000)]);
  };
  try {
    await waitUntil(
      "the server answering",
      () =>
        fetch(`${origin}/`, { method: "HEAD" }).then(
          () => true,
          () => false,
        ),
      { failed: () => (child.exitCode !== null ? `it stopped: ${output}` : null) },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, log: () => output, stop };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
