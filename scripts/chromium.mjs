// Debian's Chromium, which the browser tests, the bench's console benchmark and the screenshots
// drive: found where it is, or installed when this machine allows it (root with apt-get), else
// a message that says how.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether Chromium is there, installing Debian's package first when it can. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("Installing Debian's Chromium for the browser tests (apt-get install chromium)...");
    const apt = (/** @type {string[]} */ args) =>
      spawnSync("apt-get", args, {
        stdio: "inherit",
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      }).status === 0;
    if (apt(["update", "-qq"])) apt(["install", "-y", "-qq", "chromium"]);
    if (existsSync(CHROMIUM)) return true;
  }
  console.error(
    `Chromium was not found at ${CHROMIUM} and could not be installed here.\n` +
      "Install it with `sudo apt-get install chromium` (Debian/Ubuntu) or point CHROMIUM_PATH at a Chromium binary.",
  );
  return false;
}
