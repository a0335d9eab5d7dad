// Makes sure a Chromium for the browser tests is present before Playwright starts.
// On a Debian machine as root it installs the `chromium` package when /usr/bin/chromium is
// missing; elsewhere it stops with a message saying what to install or which variable to set.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const wanted = process.env.STARPO_CHROMIUM ?? '/usr/bin/chromium';
if (existsSync(wanted)) process.exit(0);

if (process.env.STARPO_CHROMIUM) {
  console.error(`STARPO_CHROMIUM names ${wanted}, which does not exist. Point it at a Chromium binary.`);
  process.exit(1);
}

const isDebian = existsSync('/etc/debian_version') || /ID(_LIKE)?=.*debian/.test(safeRead('/etc/os-release'));
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isDebian && isRoot) {
  console.error(
    "Chromium is missing: installing Debian's chromium package (apt-get update && apt-get install -y chromium)…",
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env,
  });
  if (existsSync(wanted)) process.exit(0);
  console.error('apt-get finished but /usr/bin/chromium is still missing.');
  process.exit(1);
}

console.error(
  [
    'The browser tests need Chromium at /usr/bin/chromium and it is not there.',
    isDebian
      ? 'Install it as root: apt-get update && apt-get install -y chromium'
      : "Install Chromium with your system's package manager,",
    'or set STARPO_CHROMIUM to the path of a Chromium (or Chrome) binary.',
  ].join('\n'),
);
process.exit(1);

function safeRead(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
