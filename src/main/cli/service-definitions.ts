/**
 * The service definitions `npm run agent -- install-service --print` prints: a systemd unit
 * (Linux), a launchd daemon plist (macOS) and a WinSW service XML (Windows; WinSW is the
 * MIT-licensed service wrapper at github.com/winsw/winsw). Each runs the bundled agent
 * (`node out/agent/agent.mjs`) with AGENT_NODE_FLAGS and `--config FILE`; the API key is never in a definition:
 * it lives in a file only root / the service account can read (systemd: an EnvironmentFile
 * with PRINT_STATION_API_KEY; macOS and Windows: `apiKey` in the protected config file).
 */

import { AGENT_NODE_FLAGS } from './agent-node-flags';
import { ADMINISTRATORS_SID, dataDirAclArgs, SYSTEM_SID } from '../data-dir-acl';
import { powershellWord, shWord, shWordInComment, systemdExecWord, systemdValue, xmlText } from './service-quoting';

export type ServiceOs = 'linux' | 'macos' | 'windows';

export interface ServiceDefinitionOptions {
  readonly os: ServiceOs;
  /** The node executable (Node 20 or later). */
  readonly nodePath: string;
  /** The project directory holding out/agent/agent.mjs and node_modules. */
  readonly appDir: string;
  /** The agent's JSON config (apiUrl, printer, rules...; on macOS and Windows also apiKey). */
  readonly configPath: string;
  /** The ledger, settings and logs. */
  readonly dataDir: string;
  /** The account the agent runs as; null = the platform's default (LocalSystem on Windows). */
  readonly user: string | null;
  /** Linux only: the root-only file holding PRINT_STATION_API_KEY=... */
  readonly envFile: string;
}

export interface ServiceDefinition {
  /** Where the operator puts it. */
  readonly fileName: string;
  readonly text: string;
}

const SERVICE_NAME = 'print-station-agent';
const LAUNCHD_LABEL = 'com.printstation.agent';

function join(os: ServiceOs, ...parts: string[]): string {
  const sep = os === 'windows' ? '\\' : '/';
  return parts.map((p, i) => (i === 0 ? p.replace(/[\\/]+$/, '') : p.replace(/^[\\/]+|[\\/]+$/g, ''))).join(sep);
}

/** The bundled agent inside the project directory. */
export function agentBundle(options: Pick<ServiceDefinitionOptions, 'os' | 'appDir'>): string {
  return join(options.os, options.appDir, 'out', 'agent', 'agent.mjs');
}

export function serviceDefinition(options: ServiceDefinitionOptions): ServiceDefinition {
  switch (options.os) {
    case 'linux':
      return { fileName: `/etc/systemd/system/${SERVICE_NAME}.service`, text: systemdUnit(options) };
    case 'macos':
      return { fileName: `/Library/LaunchDaemons/${LAUNCHD_LABEL}.plist`, text: launchdPlist(options) };
    case 'windows':
      return { fileName: join('windows', options.appDir, `${SERVICE_NAME}.xml`), text: winswXml(options) };
  }
}

function posixDir(file: string): string {
  return file.replace(/\/[^/]*$/, '') || '/';
}

function systemdUnit(o: ServiceDefinitionOptions): string {
  const user = o.user ?? 'print-station';
  const exec = [o.nodePath, ...AGENT_NODE_FLAGS, agentBundle(o), '--config', o.configPath, '--data-dir', o.dataDir]
    .map(systemdExecWord)
    .join(' ');
  // The comment lines are sh to copy: every value one sh word. The settings are systemd's: % as %%.
  const sh = shWord;
  return `# Print Station agent as a systemd service. Review, then as root:
#   useradd --system --home-dir ${sh(o.dataDir)} --groups lp ${sh(user)}
#   install -d -m 700 -o ${sh(user)} ${sh(o.dataDir)}
#   install -d -m 755 ${[...new Set([posixDir(o.envFile), posixDir(o.configPath)])].map(sh).join(' ')}
#   install -m 600 -o root -g root /dev/null ${sh(o.envFile)}   # then put PRINT_STATION_API_KEY=... in it
#   install -m 640 -o root -g ${sh(user)} /dev/null ${sh(o.configPath)}   # then put {"apiUrl": ..., "printer": ...} in it
#   cp ${SERVICE_NAME}.service /etc/systemd/system/ && systemctl daemon-reload && systemctl enable --now ${SERVICE_NAME}
# The key is read by systemd from the root-only environment file: it is never in this unit.
[Unit]
Description=Print Station agent (label printing for the Shipment Booking Service)
After=network-online.target cups.service
Wants=network-online.target

[Service]
Type=simple
User=${systemdValue(user)}
WorkingDirectory=${systemdValue(o.appDir)}
EnvironmentFile=${systemdValue(o.envFile)}
ExecStart=${exec}
Restart=on-failure
RestartSec=5
# A clean stop lets the job being spooled finish; unfinished jobs resume on the next start.
KillSignal=SIGTERM
TimeoutStopSec=30
NoNewPrivileges=true
PrivateTmp=true
ProtectSystem=full

[Install]
WantedBy=multi-user.target
`;
}

function launchdPlist(o: ServiceDefinitionOptions): string {
  const user = o.user ?? '_printstation';
  const args = [o.nodePath, ...AGENT_NODE_FLAGS, agentBundle(o), '--config', o.configPath, '--data-dir', o.dataDir];
  // The comment's lines are sh to copy, inside an XML comment: no entities there, and no `--`.
  const sh = shWordInComment;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!--
  Print Station agent as a launchd daemon. Review, then as an administrator
  (the account ${sh(user)} must exist: create a hidden service account, or print this again
  with install-service's user option):
    sudo mkdir -p ${sh(o.dataDir)} && sudo chown ${sh(user)} ${sh(o.dataDir)} && sudo chmod 700 ${sh(o.dataDir)}
    sudo install -m 600 -o ${sh(user)} /dev/null ${sh(o.configPath)}   (then put apiUrl, apiKey, printer... in it)
    sudo cp ${LAUNCHD_LABEL}.plist /Library/LaunchDaemons/ && sudo chown root:wheel /Library/LaunchDaemons/${LAUNCHD_LABEL}.plist
    sudo launchctl bootstrap system /Library/LaunchDaemons/${LAUNCHD_LABEL}.plist
  The key is in the config file only ${sh(user)} can read: it is never in this plist.
-->
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>UserName</key>
  <string>${xmlText(user)}</string>
  <key>ProgramArguments</key>
  <array>
${args.map((a) => `    <string>${xmlText(a)}</string>`).join('\n')}
  </array>
  <key>WorkingDirectory</key>
  <string>${xmlText(o.appDir)}</string>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ThrottleInterval</key>
  <integer>5</integer>
  <key>ExitTimeOut</key>
  <integer>30</integer>
  <key>StandardOutPath</key>
  <string>${xmlText(join('macos', o.dataDir, 'logs', 'service.out.log'))}</string>
  <key>StandardErrorPath</key>
  <string>${xmlText(join('macos', o.dataDir, 'logs', 'service.err.log'))}</string>
</dict>
</plist>
`;
}

/** WinSW joins <arguments> into one command line: quote each argument the Windows way. */
function windowsArg(arg: string): string {
  return /[\s"]/.test(arg) ? `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"` : arg;
}

/** The account as icacls names it: `.\\packer` (this computer's, as WinSW takes it) is `packer`. */
export function icaclsAccount(user: string): string {
  return user.replace(/^\.\\/, '');
}

function winswXml(o: ServiceDefinitionOptions): string {
  const args = [...AGENT_NODE_FLAGS, agentBundle(o), '--config', o.configPath, '--data-dir', o.dataDir].map(windowsArg).join(' ');
  const account = o.user
    ? `
  <!-- Runs as this account so it sees the printers installed for it (LocalSystem sees only per-machine printers). -->
  <serviceaccount>
    <username>${xmlText(o.user)}</username>
    <allowservicelogon>true</allowservicelogon>
  </serviceaccount>`
    : '';
  // The comment's lines are PowerShell to copy, inside an XML comment: no entities there, and
  // powershellWord never writes `--`.
  const ps = powershellWord;
  // icacls's own switches (`/grant:r`) bare, every value quoted.
  const icacls = (args: readonly string[]): string => args.map((a) => (/^\/[a-z]+:[a-z]$/.test(a) ? a : ps(a))).join(' ');
  const exe = ps(join('windows', o.appDir, `${SERVICE_NAME}.exe`));
  const configGrants = [`*${SYSTEM_SID}:F`, `*${ADMINISTRATORS_SID}:F`, ...(o.user ? [`${icaclsAccount(o.user)}:R`] : [])];
  const reader = o.user ? 'the service account, SYSTEM and Administrators' : 'SYSTEM and Administrators';
  return `<!--
  Print Station agent as a Windows service through WinSW (https://github.com/winsw/winsw, v2.12).
  Review, then in an elevated PowerShell:
    Copy WinSW-x64.exe to ${exe} and this file next to it as ${SERVICE_NAME}.xml
    New-Item -ItemType Directory -Force ${ps(o.dataDir)}
    icacls ${icacls(dataDirAclArgs(o.dataDir, o.user ? icaclsAccount(o.user) : null))}
    icacls ${icacls([o.configPath, '/inheritance:r', '/grant:r', ...configGrants])}   (the config holds apiKey)
    & ${exe} install${o.user ? ' /p   (asks for the password of the account below)' : ''}
    & ${exe} start
  The data directory (ledger, logs, the UI's token) and the config file are for ${reader}
  only; the agent checks the data directory at each start. The key is never in this file.
-->
<service>
  <id>${SERVICE_NAME}</id>
  <name>Print Station agent</name>
  <description>Prints shipping labels for the Shipment Booking Service.</description>
  <executable>${xmlText(o.nodePath)}</executable>
  <arguments>${xmlText(args)}</arguments>
  <workingdirectory>${xmlText(o.appDir)}</workingdirectory>
  <startmode>Automatic</startmode>
  <onfailure action="restart" delay="10 sec"/>
  <onfailure action="restart" delay="30 sec"/>
  <resetfailure>1 hour</resetfailure>
  <!-- Ctrl+C first, so the job being spooled finishes; unfinished jobs resume on the next start. -->
  <stoptimeout>30 sec</stoptimeout>
  <logpath>${xmlText(join('windows', o.dataDir, 'logs'))}</logpath>
  <log mode="roll-by-size">
    <sizeThreshold>10240</sizeThreshold>
    <keepFiles>8</keepFiles>
  </log>${account}
</service>
`;
}
